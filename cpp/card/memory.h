// How much memory a model's weights take: as stored, and at 16, 8 and 4 bits a weight.
#pragma once

#include <optional>
#include <span>

#include "card/model_card.h"
#include "card/tensor_view.h"

namespace safetensors {

/// @brief The bytes of `tensors` by dtype, and the weights' size at 16, 8 and 4 bits: the
/// parameter count (a packed quantized layout's unpacked estimate; none when the header does
/// not determine it) times 2, 1 and 0.5 bytes. Weights alone: no quantization scales, no
/// activations, no runtime.
Memory memory_estimate(std::span<const TensorView> tensors, const Parameters& parameters);

}  // namespace safetensors
