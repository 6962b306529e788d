// The tensor list as a tree of modules, so that a person can fold a 1,750-tensor adapter or a
// 20,000-tensor model into a short page. Names split at '.'; kohya adapter names, which use
// '_' for '.', split after their prefix and after each block number
// ("lora_unet_down_blocks_0_attentions_1_proj_in" -> lora_unet / down_blocks_0 /
// attentions_1 / proj_in). A module with a single tensor is folded into its parent, and a
// chain of modules with one child each becomes one node ("model.diffusion_model").
#pragma once

#include <span>

#include "card/model_card.h"
#include "card/tensor_view.h"
#include "format/header.h"

namespace safetensors {

/// @brief The tree of `tensors` (data order).
ModuleTree module_tree(std::span<const TensorView> tensors, bool kohya_names);

/// @brief The full path of node `i` (names joined by their separators), for tests and tools.
std::string module_path(const ModuleTree& tree, std::uint32_t i);

}  // namespace safetensors
