// A base model's modules under the names adapters give them (see base_modules.h).
#include "adapter/base_modules.h"

#include <algorithm>
#include <array>
#include <map>
#include <utility>

#include "adapter/flux_names.h"
#include "adapter/unet_names.h"

namespace safetensors {
namespace {

// Where a single-file Stable Diffusion checkpoint (LDM, and ComfyUI's saves) puts each part;
// `open_clip` when the part is named as open_clip names it. Sources: Stability-AI's
// generative-models and CompVis' stable-diffusion configs (first_stage_model, cond_stage_model,
// conditioner.embedders), comfyanonymous/ComfyUI comfy/supported_models.py (text_encoders.*).
struct PartPrefix {
  std::string_view prefix;
  ModelPart part;
  bool open_clip = false;
};
constexpr PartPrefix kPartPrefixes[] = {
    {"model.diffusion_model.", ModelPart::Unet},
    {"cond_stage_model.transformer.", ModelPart::TextEncoder},
    {"cond_stage_model.model.", ModelPart::TextEncoder, true},
    {"conditioner.embedders.0.transformer.", ModelPart::TextEncoder},
    {"conditioner.embedders.1.model.", ModelPart::TextEncoder2, true},
    {"text_encoders.clip_l.transformer.", ModelPart::TextEncoder},
    {"text_encoders.clip_g.transformer.", ModelPart::TextEncoder2},
    {"text_encoders.t5xxl.transformer.", ModelPart::TextEncoder3},
    {"first_stage_model.", ModelPart::Vae},
};

constexpr std::string_view kPartNames[] = {"model", "unet", "text_encoder", "text_encoder_2", "text_encoder_3", "vae"};

// The first names of a UNet's modules in each layout, and of a FLUX model's in BFL's.
constexpr std::string_view kLdmUnet[] = {"input_blocks.", "middle_block.", "output_blocks.",
                                         "time_embed.",   "label_emb.",    "out."};
constexpr std::string_view kDiffusersUnet[] = {"down_blocks.",    "mid_block.",     "up_blocks.", "conv_in",
                                               "time_embedding.", "add_embedding.", "conv_out",   "conv_norm_out"};
constexpr std::string_view kDiffusersDit[] = {"transformer_blocks.", "single_transformer_blocks.", "x_embedder",
                                              "context_embedder"};
constexpr std::string_view kBfl[] = {"double_blocks.", "single_blocks."};
constexpr std::string_view kTransformers[] = {".layers.", ".layer.", ".h.", ".block.", "layers.", "h."};

template <std::size_t N>
bool starts_with_any(std::string_view name, const std::string_view (&prefixes)[N]) {
  return std::any_of(std::begin(prefixes), std::end(prefixes), [&](std::string_view p) { return name.starts_with(p); });
}

std::string key_of(ModelPart part, std::string_view name) {
  std::string key(1, static_cast<char>('0' + static_cast<int>(part)));
  key += name;
  std::replace(key.begin() + 1, key.end(), '.', '_');
  return key;
}

// `name` without its first component, when it has at least two more.
std::optional<std::string_view> unwrap(std::string_view name) {
  const std::size_t dot = name.find('.');
  if (dot == std::string_view::npos || name.find('.', dot + 1) == std::string_view::npos) return std::nullopt;
  return name.substr(dot + 1);
}

}  // namespace

std::string_view part_name(ModelPart part) { return kPartNames[static_cast<int>(part)]; }

void BaseModules::add(ModelPart part, std::string_view name, const BaseWeight& weight, bool unwrapped) {
  if (unwrapped) {
    const std::string key = key_of(part, name);
    unwrapped_.try_emplace(key, weight);
    ++unwrapped_count_[key];
    return;
  }
  names_.try_emplace(key_of(part, name), weight);
}

// The tensors of a diffusers FLUX model that BFL's checkpoints hold as one weight, by part.
struct BaseModules::Stacking {
  int parts = 0;
  std::array<std::optional<std::uint32_t>, 4> tensors;
};

// BFL's fused weight, as kohya's FLUX LoRAs name it, from diffusers' parts when the base has them
// all, each [rows, in] with the same in: [their rows together, in].
void BaseModules::stack(ModelPart part, std::string_view name, const Stacking& s, std::span<const TensorView> tensors) {
  std::uint64_t rows = 0, in = 0;
  std::string names;
  for (int k = 0; k < s.parts; ++k) {
    if (!s.tensors[k]) return;
    const TensorView& t = tensors[*s.tensors[k]];
    if (t.shape.size() != 2 || (k > 0 && t.shape[1] != in)) return;
    rows += t.shape[0], in = t.shape[1];
    names += (k ? ", " : "") + std::string(t.name);
  }
  stacked_names_.push_back(names + " (stacked)");
  const auto& shape = stacked_shapes_.emplace_back(std::array{rows, in});
  const std::uint32_t first = *s.tensors[0];
  std::string_view module = tensors[first].name;
  if (module.ends_with(".weight")) module.remove_suffix(7);
  add(part, name, {first, 0, 0, module, shape, stacked_names_.back()});
}

BaseModules::BaseModules(std::span<const TensorView> tensors) {
  std::map<std::pair<ModelPart, std::string>, Stacking> stacking;
  bool ldm = false, diffusers = false, bfl = false, transformers = false;
  for (std::uint32_t i = 0; i < tensors.size(); ++i) {
    const std::string_view name = tensors[i].name;
    // GPTQ and AWQ store a quantized layer's weight as `qweight`.
    const bool fused = name.ends_with(".attn.in_proj_weight");
    const bool qweight = name.ends_with(".qweight");
    if (!fused && !qweight && !name.ends_with(".weight")) continue;
    const std::string_view module = name.substr(0, name.size() - (qweight ? 8 : 7));
    ModelPart part = ModelPart::Whole;
    std::string_view inner = module;
    bool open_clip = false;
    for (const PartPrefix& p : kPartPrefixes) {
      if (module.starts_with(p.prefix)) {
        part = p.part;
        inner = module.substr(p.prefix.size());
        open_clip = p.open_clip;
        ldm = true;
        break;
      }
    }
    parts_ |= 1U << static_cast<int>(part);
    const BaseWeight weight{i, 0, 0, module};
    const std::span<const std::uint64_t> shape = tensors[i].shape;
    if (fused) {
      const std::uint64_t third = shape.empty() ? 0 : shape[0] / 3;
      for (std::uint32_t k = 0; k < 3 && third > 0; ++k) {
        if (const auto hf = clip_fused_part(inner, static_cast<int>(k))) add(part, *hf, {i, k * third, third, module});
      }
      continue;
    }
    add(part, inner, weight);
    if (part == ModelPart::Whole || part == ModelPart::Unet) {
      for (const FluxRows& f : flux_bfl_to_diffusers(inner, shape))
        add(part, f.diffusers, {i, f.offset, f.rows, module});
      if (const auto bfl = flux_diffusers_to_bfl(inner)) {
        if (bfl->parts == 1) {
          add(part, bfl->bfl, weight);
        } else {
          Stacking& s = stacking[{part, bfl->bfl}];
          s.parts = bfl->parts;
          s.tensors[bfl->part] = i;
        }
      }
    }
    if (part == ModelPart::Unet || (part == ModelPart::Whole && starts_with_any(inner, kLdmUnet))) {
      if (const auto other = unet_ldm_to_diffusers(inner)) add(part, *other, weight);
    }
    diffusers = diffusers || (part == ModelPart::Whole && starts_with_any(inner, kDiffusersDit));
    if (part == ModelPart::Whole && starts_with_any(inner, kDiffusersUnet)) {
      diffusers = true;
      if (auto other = unet_diffusers_to_ldm(inner)) {
        add(part, *other, weight);
        // An up level's sampler is LDM's index 2 where the level has an attention (unet_names.h).
        if (other->ends_with(".1.conv")) add(part, other->replace(other->size() - 6, 1, "2"), weight);
      }
    }
    if (open_clip || inner.starts_with("transformer.resblocks.")) {
      if (const auto hf = open_clip_to_transformers(inner)) add(part, *hf, weight);
    }
    if (part == ModelPart::Whole) {
      bfl = bfl || starts_with_any(inner, kBfl);
      transformers = transformers || std::any_of(std::begin(kTransformers), std::end(kTransformers), [&](auto p) {
                       return p.front() == '.' ? inner.find(p) != std::string_view::npos : inner.starts_with(p);
                     });
      if (const auto rest = unwrap(inner)) add(part, *rest, weight, true);
    }
  }
  for (auto& [where, parts] : stacking) stack(where.first, where.second, parts, tensors);
  format_ = ldm ? "ldm" : bfl ? "bfl" : diffusers ? "diffusers" : transformers ? "transformers" : "unknown";
}

std::optional<BaseWeight> BaseModules::find(ModelPart part, std::string_view name) const {
  const auto it = names_.find(key_of(part, name));
  if (it == names_.end()) return std::nullopt;
  return it->second;
}

std::optional<BaseWeight> BaseModules::find_unwrapped(ModelPart part, std::string_view name) const {
  const auto unwrapped = unwrap(name);
  if (unwrapped) {
    if (auto w = find(part, *unwrapped)) return w;
  }
  for (const std::optional<std::string_view> n : {std::optional(name), unwrapped}) {
    if (!n) continue;
    const std::string key = key_of(part, *n);
    const auto it = unwrapped_.find(key);
    if (it != unwrapped_.end() && unwrapped_count_.at(key) == 1) return it->second;
  }
  return std::nullopt;
}

}  // namespace safetensors
