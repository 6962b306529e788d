// Findings on __metadata__: keys nobody documents, format values that loaders
// refuse, embedded blobs, and integer weights with no word on how to read them.
#include <algorithm>
#include <array>
#include <string>
#include <string_view>

#include "findings/metadata_findings.h"

#include "findings/message_text.h"

namespace safetensors {
namespace {

// Key families with a known meaning: transformers/safetensors ("format"), kohya
// sd-scripts training records (ss_*, sshs_* hashes), the Stability model spec
// (modelspec.*), the additional-networks extension (ssmd_*), AUTOMATIC1111 merges
// (sd_merge_*) and diffusers LoRA adapters (lora_adapter_metadata).
constexpr std::array<std::string_view, 5> kKnownPrefixes = {"ss_", "sshs_", "modelspec.", "ssmd_", "sd_merge_"};
constexpr std::array<std::string_view, 2> kKnownKeys = {"format", "lora_adapter_metadata"};
// transformers loads only pt, tf, flax and mlx (modeling_utils.py); safetensors.numpy writes np.
constexpr std::array<std::string_view, 5> kKnownFormats = {"pt", "tf", "flax", "mlx", "np"};
// Words that say a file holds quantized weights, in metadata keys or values.
constexpr std::array<std::string_view, 10> kQuantWords = {"quant", "bitsandbytes", "bnb", "gptq", "awq",
                                                          "int8",  "int4",         "nf4", "8bit", "4bit"};
// What companion tensors of a quantized weight are called (bitsandbytes SCB/absmax/quant_state,
// compressed-tensors weight_scale/weight_zero_point, GPTQ scales/qzeros).
constexpr std::array<std::string_view, 5> kCompanionWords = {"scale", "zero_point", "absmax", "scb", "quant"};
constexpr std::size_t kListedKeys = 5;
constexpr std::size_t kHintSearchBytes = 1 << 20;

bool known_key(std::string_view key) {
  if (std::find(kKnownKeys.begin(), kKnownKeys.end(), key) != kKnownKeys.end()) return true;
  return std::any_of(kKnownPrefixes.begin(), kKnownPrefixes.end(),
                     [&](std::string_view p) { return key.starts_with(p); });
}

// Case-insensitive (ASCII) search for a lowercase word.
bool contains_word(std::string_view text, std::string_view lower_word) {
  if (lower_word.size() > text.size()) return false;
  for (std::size_t i = 0; i + lower_word.size() <= text.size(); ++i) {
    std::size_t j = 0;
    while (j < lower_word.size()) {
      char c = text[i + j];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (c != lower_word[j]) break;
      ++j;
    }
    if (j == lower_word.size()) return true;
  }
  return false;
}

template <std::size_t N>
bool contains_any(std::string_view text, const std::array<std::string_view, N>& words) {
  return std::any_of(words.begin(), words.end(), [&](std::string_view w) { return contains_word(text, w); });
}

// Base64 image payloads as embedded by model-card tools (PNG, JPEG, data: URLs).
bool looks_like_image(std::string_view value) {
  const std::string_view head = value.substr(0, 64);
  return head.find("data:image/") != std::string_view::npos || head.find("iVBORw0KGgo") != std::string_view::npos ||
         head.find("/9j/") != std::string_view::npos;
}

// True for names like float weights: "module.weight" (prefix "module."), "bias" (prefix "").
bool weight_prefix(std::string_view name, std::string_view& prefix) {
  for (std::string_view suffix : {std::string_view("weight"), std::string_view("bias")}) {
    if (!name.ends_with(suffix)) continue;
    prefix = name.substr(0, name.size() - suffix.size());
    if (prefix.empty() || prefix.back() == '.') return true;
  }
  return false;
}

void add_key_findings(const Metadata& metadata, std::vector<Finding>& out) {
  std::size_t unknown = 0;
  std::string listed;
  const std::string* largest_key = nullptr;
  std::size_t large = 0, largest_size = 0;
  bool largest_is_image = false;
  for (const auto& [key, value] : metadata) {
    if (!known_key(key) && unknown++ < kListedKeys) listed += (listed.empty() ? "" : ", ") + quote_name(key);
    if (key == "format" && std::find(kKnownFormats.begin(), kKnownFormats.end(), value) == kKnownFormats.end()) {
      out.push_back({FindingCode::UnusualFormat,
                     "metadata says format " + quote_name(value) +
                         "; transformers refuses files whose format is not 'pt', 'tf', 'flax' or 'mlx'. If this "
                         "is a PyTorch checkpoint, set format to 'pt'"});
    }
    if (value.size() > kLargeMetadataValue) {
      ++large;
      if (value.size() > largest_size) {
        largest_size = value.size();
        largest_key = &key;
        largest_is_image = looks_like_image(value);
      }
    }
  }
  if (unknown != 0) {
    out.push_back({FindingCode::UnknownMetadataKey,
                   group_digits(unknown) + (unknown == 1 ? " metadata key is" : " metadata keys are") +
                       " outside the families this library knows (format, ss_*, sshs_*, modelspec.*, ssmd_*, "
                       "sd_merge_*, lora_adapter_metadata): " +
                       listed + (unknown > kListedKeys ? ", ..." : "") +
                       ". They are kept as data; their meaning is up to whoever wrote them"});
  }
  if (large != 0) {
    out.push_back({FindingCode::LargeMetadataValue,
                   group_digits(large) + (large == 1 ? " metadata value is" : " metadata values are") +
                       " larger than 64 KiB (largest: " + quote_name(*largest_key) + ", " + count_bytes(largest_size) +
                       (largest_is_image ? ", an embedded image" : "") +
                       "); every reader loads the whole header, so large values slow down opening the file"});
  }
}

void add_integer_weight_findings(std::span<const TensorEntry> tensors, const Metadata& metadata,
                                 std::vector<Finding>& out) {
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const TensorEntry& t = tensors[i];
    std::string_view prefix;
    if ((t.dtype == Dtype::U8 || t.dtype == Dtype::I8) && weight_prefix(t.name, prefix)) candidates.push_back(i);
  }
  if (candidates.empty()) return;
  // A quantization config is small; the search stops at kHintSearchBytes of each value so a
  // hostile 100 MB value costs a bounded scan.
  for (const auto& [key, value] : metadata) {
    if (contains_any(key, kQuantWords) ||
        contains_any(std::string_view(value).substr(0, kHintSearchBytes), kQuantWords))
      return;
  }
  // A weight "m.weight" is explained by another tensor of its module whose name says what
  // it is: "m.weight_scale", "m.SCB", "m.weight.absmax", "m.weight.quant_state.bitsandbytes__nf4".
  std::vector<std::string_view> names;
  names.reserve(tensors.size());
  for (const TensorEntry& t : tensors) names.emplace_back(t.name);
  std::sort(names.begin(), names.end());
  auto has_companion = [&](std::string_view prefix) {
    for (auto it = std::lower_bound(names.begin(), names.end(), prefix); it != names.end() && it->starts_with(prefix);
         ++it) {
      if (contains_any(it->substr(prefix.size()), kCompanionWords)) return true;
    }
    return false;
  };
  std::size_t unlabeled = 0;
  const TensorEntry* first = nullptr;
  for (std::size_t i : candidates) {
    const TensorEntry& t = tensors[i];
    std::string_view prefix;
    weight_prefix(t.name, prefix);
    if (has_companion(prefix)) continue;
    if (unlabeled++ == 0) first = &t;
  }
  if (unlabeled == 0) return;
  out.push_back({FindingCode::UnlabeledIntegerWeights,
                 group_digits(unlabeled) + (unlabeled == 1 ? " U8/I8 tensor is" : " U8/I8 tensors are") +
                     " named like float weights (first: " + quote_name(first->name) +
                     ") but neither the metadata nor companion scale/zero_point tensors say how they were "
                     "quantized; a loader will use the raw integers as the weights. Keep the quantization "
                     "config with the file, or re-export the float weights",
                 first->name});
}

}  // namespace

void add_metadata_findings(std::span<const TensorEntry> tensors, const Metadata& metadata, std::vector<Finding>& out) {
  add_key_findings(metadata, out);
  add_integer_weight_findings(tensors, metadata, out);
}

}  // namespace safetensors
