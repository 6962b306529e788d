// Adapted modules' names (see adapter_modules.h).
#include "adapter/adapter_modules.h"

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

// huggingface/peft, utils/other.py ModulesToSaveWrapper: a module named in modules_to_save is
// kept twice, the frozen original under "original_module" and the trained copy under
// "modules_to_save.<adapter>"; get_peft_model_state_dict then drops ".<adapter>" from the keys
// it saves, so a saved file names the copy "<module>.modules_to_save" (a raw state_dict keeps
// "<module>.modules_to_save.default").
constexpr std::string_view kTrainedCopy = ".modules_to_save";
constexpr std::string_view kFrozenCopy = ".original_module";
constexpr std::string_view kDefaultAdapter = "default";

// Whether `segment` starts `s` at `at` as a whole segment: followed by '.' or the end.
bool segment_at(std::string_view s, std::size_t at, std::string_view segment) {
  const std::size_t end = at + segment.size();
  return s.substr(at, segment.size()) == segment && (end == s.size() || s[end] == '.');
}

// `module` without its trained-copy segment (and the default adapter's name after it): the
// module the copy stands for.
std::string_view without_trained_copy(std::string_view module, std::string& storage) {
  for (std::size_t at = module.find(kTrainedCopy); at != std::string_view::npos;
       at = module.find(kTrainedCopy, at + 1)) {
    if (!segment_at(module, at, kTrainedCopy)) continue;
    std::size_t rest = at + kTrainedCopy.size();
    if (rest < module.size() && segment_at(module, rest + 1, kDefaultAdapter)) rest += 1 + kDefaultAdapter.size();
    storage.assign(module.substr(0, at));
    storage += module.substr(rest);
    return storage;
  }
  return module;
}

}  // namespace

std::string base_module(std::string_view module) {
  if (module.starts_with(kPeftPrefix)) module.remove_prefix(kPeftPrefix.size());
  std::string copied;
  module = without_trained_copy(module, copied);
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

bool in_frozen_copy(std::string_view module) {
  for (std::size_t at = module.find(kFrozenCopy); at != std::string_view::npos; at = module.find(kFrozenCopy, at + 1))
    if (segment_at(module, at, kFrozenCopy)) return true;
  return false;
}

}  // namespace safetensors
