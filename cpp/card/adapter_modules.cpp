// Adapted modules' names (see adapter_modules.h).
#include "card/adapter_modules.h"

#include <algorithm>

namespace safetensors {
namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// diffusers' LoRA attention processors (diffusers/models/attention_processor.py, 2023:
// LoRAAttnProcessor) held to_q_lora, to_k_lora, to_v_lora and to_out_lora for the attention's
// to_q, to_k, to_v and to_out[0].
constexpr std::string_view kProcessor = ".processor.";

}  // namespace

std::string base_module(std::string_view module) {
  if (module.starts_with(kPeftPrefix)) module.remove_prefix(kPeftPrefix.size());
  const std::size_t at = module.rfind(kProcessor);
  if (at == std::string_view::npos) return std::string(module);
  std::string out(module.substr(0, at + 1));
  const std::string_view leaf = module.substr(at + kProcessor.size());
  out += leaf;
  if (leaf == "to_out") out += ".0";
  return out;
}

std::string_view target_name(std::string_view module) {
  const std::size_t last = module.rfind('.');
  if (last == std::string_view::npos) return module;
  if (!all_digits(module.substr(last + 1)) || last == 0) return module.substr(last + 1);
  const std::size_t before = module.rfind('.', last - 1);
  return before == std::string_view::npos ? module : module.substr(before + 1);
}

bool in_saved_copy(std::string_view module) {
  return module.find(".original_module.") != std::string_view::npos ||
         module.find(".modules_to_save.") != std::string_view::npos;
}

}  // namespace safetensors
