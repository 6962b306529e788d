// Whole-file adapter and embedding layouts (see adapter_layouts.h). They find the layout and
// keep the tensors that tell the text encoder (EncoderClue); the card's families read those.
#include "adapter/adapter_layouts.h"

#include <algorithm>
#include <map>
#include <string>
#include <string_view>

#include "card/family_rules.h"

namespace safetensors {
namespace {

// A textual inversion holds a few vectors (A1111 allows up to 75, a prompt's worth).
constexpr std::uint64_t kMaxVectors = 75;

// A clue of the text encoder's width: `t`'s dimension `width`.
EncoderClue width_clue(std::size_t t, std::uint64_t width, std::string_view note) {
  return EncoderClue{{static_cast<std::uint32_t>(t)}, width, false, note};
}

// lora_diffusion's part names end with ":<n>:down" or ":<n>:up".
bool numbered_part(std::string_view name, std::string_view end) {
  if (!name.ends_with(end)) return false;
  name.remove_suffix(end.size());
  std::size_t digits = 0;
  while (digits < name.size() && name[name.size() - 1 - digits] >= '0' && name[name.size() - 1 - digits] <= '9')
    ++digits;
  return digits > 0 && digits < name.size() && name[name.size() - 1 - digits] == ':';
}

// cloneofsimo/lora: "unet:0:up", "text_encoder:3:down", and tokens marked "<embed>".
bool lora_diffusion_scan(std::span<const TensorView> tensors, const MetadataView& meta, AdapterScan& out) {
  std::size_t parts = 0;
  std::map<std::uint64_t, std::size_t> ranks;
  std::vector<std::string> targets;
  std::vector<EncoderClue> clues;
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
    const bool down = part_end && numbered_part(t.name, ":down"), up = part_end && numbered_part(t.name, ":up");
    if (down || up) {
      ++parts;
      const std::string target(t.name.substr(0, t.name.find(':')));
      if (std::find(targets.begin(), targets.end(), target) == targets.end()) targets.push_back(target);
      if (down && t.shape.size() >= 2) {
        ++ranks[t.shape[0]];
        if (target == "text_encoder") clues.push_back(width_clue(i, t.shape[1], "text encoder width"));
      }
    } else if (tokens && meta.get(t.name) == std::optional<std::string_view>("<embed>")) {
      ++parts;
      out.embedded_tokens.emplace_back(t.name);
      if (!t.shape.empty()) clues.push_back(width_clue(i, t.shape.back(), "token embedding"));
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
  } else {
    out.adapter = std::move(a);
  }
  out.encoder_clues = std::move(clues);  // the adapter's family too
  return true;
}

// diffusers' textual_inversion.py saves {"<token>": [vectors, width]} (its examples name the
// placeholder token in angle brackets, "<cat-toy>"): a token of a text encoder's width.
bool diffusers_embedding(std::span<const TensorView> tensors, AdapterScan& out) {
  if (tensors.size() != 1) return false;
  const TensorView& t = tensors.front();
  if (t.name.size() < 3 || !t.name.starts_with('<') || !t.name.ends_with('>')) return false;
  if (t.shape.empty() || t.shape.size() > 2 || (t.shape.size() == 2 && t.shape[0] > kMaxVectors)) return false;
  if (encoder_width_family(t.shape.back()).empty()) return false;  // no text encoder's width
  out.embedding = true;
  out.encoder_clues.push_back(width_clue(0, t.shape.back(), "token width"));
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
  const auto at = [&](const TensorView* t) { return static_cast<std::uint32_t>(t - tensors.data()); };
  if (clip_g) {
    EncoderClue names{{at(clip_g)}, 0, true, {}};
    if (clip_l) names.tensors.push_back(at(clip_l));
    out.encoder_clues.push_back(std::move(names));
  } else if (const TensorView* t = single ? single : clip_l; t && !t->shape.empty()) {
    out.encoder_clues.push_back(width_clue(at(t), t->shape.back(), "token width"));
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
