// The modules an adapter changes, named as the base model names them and as a user types them
// in a LoRA config's target modules ("c_attn", "to_out.0", "q_proj").
#pragma once

#include <string>
#include <string_view>

namespace safetensors {

/// @brief What PEFT puts before the base model's names (huggingface/peft, PeftModel.base_model
/// wrapping the model as `.model`).
inline constexpr std::string_view kPeftPrefix = "base_model.model.";

/// @brief The adapted module as the base model names it: without kPeftPrefix; for PEFT's
/// trained copy of a `modules_to_save` module ("classifier.modules_to_save[.default]") the
/// module it copies ("classifier"); for diffusers' attention processors (before diffusers 0.21:
/// "attn1.processor.to_out") the module the processor stands for ("attn1.to_out.0").
std::string base_module(std::string_view module);

/// @brief The module's name in a config's target modules: its last part, or its last two
/// when the last is an index ("to_out.0").
std::string_view target_name(std::string_view base_module);

/// @brief Whether `module` is, or lies in, the frozen original PEFT keeps of a `modules_to_save`
/// module ("classifier.original_module[.dense]"): its adapter parts duplicate the trained
/// copy's untrained, so they adapt nothing of their own (the trained copy stands for the module).
bool in_frozen_copy(std::string_view module);

}  // namespace safetensors
