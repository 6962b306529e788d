// Parameter counts from shapes, and estimates for packed quantized layouts.
#pragma once

#include <span>

#include "card/model_card.h"
#include "card/tensor_view.h"
#include "format/header.h"

namespace safetensors {

/// @brief The product of a shape (1 for a scalar), as a double (exact below 2^53).
double element_count(std::span<const std::uint64_t> shape);

/// @brief Σ product(shape) in total and per dtype, as huggingface_hub counts (a scalar counts
/// 1), plus an estimate of the unpacked count where a packed quantized layout is recognised
/// (GPTQ/AWQ, bitsandbytes, MLX, MXFP4). Sources: huggingface/huggingface_hub
/// (src/huggingface_hub/utils/_safetensors.py, parameter_count) and huggingface/huggingface.js
/// (packages/hub/src/lib/parse-safetensors-metadata.ts, which unpacks quantized tensors).
Parameters count_parameters(std::span<const TensorView> tensors);

}  // namespace safetensors
