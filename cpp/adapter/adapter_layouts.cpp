// Whole-file adapter and embedding layouts (see adapter_layouts.h).
#include "adapter/adapter_layouts.h"

#include <algorithm>
#include <map>
#include <string>
#include <string_view>

#include "card/family_rules.h"
#include "card/key_index.h"
#include "findings/message_text.h"

namespace safetensors {
namespace {

// A textual inversion holds a few vectors (A1111 allows up to 75, a prompt's worth).
constexpr std::uint64_t kMaxVectors = 75;

// Text-encoder widths of Stable Diffusion: CLIP ViT-L 768 (1.x), OpenCLIP ViT-H 1024 (2.x).
std::optional<Family> family_from_width(std::uint64_t width, std::string evidence) {
  std::string_view id = width == 768 ? "sd1" : width == 1024 ? "sd2" : "";
  if (id.empty()) return std::nullopt;
  return Family{std::string(id), std::string(family_name(id)), "", {std::move(evidence)}};
}

std::string describe_tensor(const TensorView& t) { return std::string(t.name) + " " + format_shape(t.shape); }

// cloneofsimo/lora: "unet:0:up", "text_encoder:3:down", and tokens marked "<embed>".
bool lora_diffusion_scan(std::span<const TensorView> tensors, const MetadataView& meta, AdapterScan& out) {
  std::size_t parts = 0;
  std::map<std::uint64_t, std::size_t> ranks;
  std::vector<std::string> targets;
  std::optional<Family> family;
  bool tokens = false;  // any "<embed>" value in the metadata
  for (const auto& [key, value] : meta.entries()) tokens = tokens || value == "<embed>";
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    // Parts must be at least half: stop once that cannot be (most files stop half-way).
    // With tokens, go on: every token found is a trigger word, even if this is no adapter.
    if (!tokens && (i - parts) * 2 > tensors.size()) return false;
    const TensorView& t = tensors[i];
    // A part ends with ":<n>:down" or ":<n>:up": the ends rule out the rest at once.
    const bool part_end = t.name.ends_with(":down") || t.name.ends_with(":up");
    if (!tokens && !part_end) continue;
    const std::string pattern = part_end ? key_pattern(t.name) : std::string();
    const bool down = pattern.ends_with(":#:down"), up = pattern.ends_with(":#:up");
    if (down || up) {
      ++parts;
      const std::string target(t.name.substr(0, t.name.find(':')));
      if (std::find(targets.begin(), targets.end(), target) == targets.end()) targets.push_back(target);
      if (down && t.shape.size() >= 2) {
        ++ranks[t.shape[0]];
        if (!family && target == "text_encoder")
          family = family_from_width(t.shape[1], describe_tensor(t) + " (text encoder width)");
      }
    } else if (tokens && meta.get(t.name) == std::optional<std::string_view>("<embed>")) {
      ++parts;
      out.embedded_tokens.emplace_back(t.name);
      if (!family && !t.shape.empty())
        family = family_from_width(t.shape.back(), describe_tensor(t) + " (token embedding)");
    }
  }
  if (parts == 0 || parts * 2 < tensors.size()) return false;
  Adapter a;
  a.type = "lora";
  a.format = "lora_diffusion";
  a.targets = targets;
  if (!ranks.empty()) {
    a.rank = static_cast<double>(
        std::max_element(ranks.begin(), ranks.end(), [](auto& x, auto& y) { return x.second < y.second; })->first);
  }
  if (targets.empty()) {
    out.embedding = true;
    out.embedding_family = family;
  } else {
    out.adapter = std::move(a);
    out.embedding_family = family;  // used for the adapter's family too
  }
  return true;
}

// diffusers' textual_inversion.py saves {"<token>": [vectors, width]} (its examples name the
// placeholder token in angle brackets, "<cat-toy>"): a token of a text encoder's width.
bool diffusers_embedding(std::span<const TensorView> tensors, AdapterScan& out) {
  if (tensors.size() != 1) return false;
  const TensorView& t = tensors.front();
  if (t.name.size() < 3 || !t.name.starts_with('<') || !t.name.ends_with('>')) return false;
  if (t.shape.empty() || t.shape.size() > 2 || (t.shape.size() == 2 && t.shape[0] > kMaxVectors)) return false;
  std::optional<Family> family = family_from_width(t.shape.back(), describe_tensor(t) + " (token width)");
  if (!family) return false;
  out.embedding = true;
  out.embedding_family = std::move(family);
  out.embedded_tokens.emplace_back(t.name);
  return true;
}

// Textual inversion files: A1111 (emb_params, string_to_param.*), SDXL (clip_l + clip_g).
bool embedding_scan(std::span<const TensorView> tensors, AdapterScan& out) {
  if (tensors.empty() || tensors.size() > 3) return false;
  const TensorView *clip_l = nullptr, *clip_g = nullptr, *single = nullptr;
  for (const TensorView& t : tensors) {
    if (t.name == "clip_l")
      clip_l = &t;
    else if (t.name == "clip_g")
      clip_g = &t;
    else if (t.name == "emb_params" || t.name.starts_with("string_to_param."))
      single = &t;
    else
      return false;
  }
  out.embedding = true;
  if (clip_g) {
    Family f{"sdxl", std::string(family_name("sdxl")), "", {describe_tensor(*clip_g)}};
    if (clip_l) f.evidence.push_back(describe_tensor(*clip_l));
    out.embedding_family = std::move(f);
  } else if (const TensorView* t = single ? single : clip_l; t && !t->shape.empty()) {
    out.embedding_family = family_from_width(t->shape.back(), describe_tensor(*t) + " (token width)");
  }
  return true;
}

// JamesQFreeman/LoRA-ViT (lora.py, save_lora_parameters) and the SAM adapters built on it:
// w_a_000, w_a_001, ... [r, in] and w_b_000, ... [out, r], one pair per adapted projection.
bool lora_vit_scan(std::span<const TensorView> tensors, AdapterScan& out) {
  if (tensors.empty() || tensors.size() % 2 != 0) return false;
  std::size_t a = 0;
  std::map<std::uint64_t, std::size_t> ranks;
  for (const TensorView& t : tensors) {
    const std::string_view name = t.name;
    if (name.size() < 5 || !(name.starts_with("w_a_") || name.starts_with("w_b_")) || t.shape.size() != 2) return false;
    if (!std::all_of(name.begin() + 4, name.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
    if (name[2] == 'a') {
      ++a;
      ++ranks[t.shape[0]];
    }
  }
  if (a * 2 != tensors.size()) return false;
  Adapter adapter;
  adapter.type = "lora";
  adapter.format = "lora-vit";
  adapter.rank = static_cast<double>(
      std::max_element(ranks.begin(), ranks.end(), [](auto& x, auto& y) { return x.second < y.second; })->first);
  out.adapter = std::move(adapter);
  return true;
}

}  // namespace

bool whole_file_layout(std::span<const TensorView> tensors, const MetadataView& meta, AdapterScan& out) {
  return embedding_scan(tensors, out) || diffusers_embedding(tensors, out) || lora_vit_scan(tensors, out) ||
         lora_diffusion_scan(tensors, meta, out);
}

}  // namespace safetensors
