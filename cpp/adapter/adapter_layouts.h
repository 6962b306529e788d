// Adapters and embeddings recognised by the file as a whole rather than by the suffix of each
// tensor (adapter_parts.h): textual inversions (A1111, SDXL, diffusers), cloneofsimo's
// lora_diffusion, and LoRA-ViT's w_a/w_b pairs.
#pragma once

#include <span>

#include "adapter/adapter_detect.h"
#include "card/metadata_view.h"
#include "card/tensor_view.h"

namespace safetensors {

/// @brief Fills `out` and returns true when `tensors` are one of these layouts.
bool whole_file_layout(std::span<const TensorView> tensors, const MetadataView& meta, AdapterScan& out);

}  // namespace safetensors
