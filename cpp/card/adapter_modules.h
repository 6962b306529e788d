// The modules an adapter changes, named as the base model names them and as a user types them
// in a LoRA config's target modules ("c_attn", "to_out.0", "q_proj").
#pragma once

#include <string>
#include <string_view>

namespace safetensors {

/// @brief What PEFT puts before the base model's names (huggingface/peft, PeftModel.base_model
/// wrapping the model as `.model`).
inline constexpr std::string_view kPeftPrefix = "base_model.model.";

/// @brief The adapted module as the base model names it: without kPeftPrefix, and for
/// diffusers' attention processors (before diffusers 0.21: "attn1.processor.to_out") the
/// module the processor stands for ("attn1.to_out.0").
std::string base_module(std::string_view module);

/// @brief The module's name in a config's target modules: its last part, or its last two
/// when the last is an index ("to_out.0").
std::string_view target_name(std::string_view base_module);

/// @brief Whether `module` lies in a copy PEFT keeps of a `modules_to_save` module (the
/// trained copy under "modules_to_save.<adapter>", the frozen one under "original_module"):
/// not a target of its own.
bool in_saved_copy(std::string_view module);

}  // namespace safetensors
