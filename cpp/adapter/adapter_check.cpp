// Does this adapter fit this base (see adapter_check.h).
#include "adapter/adapter_check.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "adapter/adapter_detect.h"
#include "adapter/adapter_modules.h"
#include "adapter/adapter_shapes.h"
#include "adapter/base_modules.h"
#include "adapter/flux_names.h"
#include "card/json_writer.h"
#include "card/quantized_weights.h"

namespace safetensors {
namespace {

// The model part a kohya prefix (adapter_parts.h) names; SDXL's text_encoder_1 is the CLIP-L
// text encoder SD 1.x calls text_encoder, and kohya's transformer the model's diffusion network.
ModelPart part_of_target(std::string_view target) {
  if (target == "text_encoder" || target == "text_encoder_1") return ModelPart::TextEncoder;
  if (target == "text_encoder_2") return ModelPart::TextEncoder2;
  if (target == "text_encoder_3") return ModelPart::TextEncoder3;
  return ModelPart::Unet;
}

// diffusers' component prefixes of a pipeline LoRA (unet., transformer., text_encoder., ...).
constexpr std::pair<std::string_view, std::string_view> kDiffusersComponents[] = {
    {"unet.", "unet"},
    {"transformer.", "transformer"},
    {"prior.", "unet"},
    {"text_encoder.", "text_encoder"},
    {"text_encoder_2.", "text_encoder_2"},
    {"text_encoder_3.", "text_encoder_3"},
};

constexpr ModelPart kAllParts[] = {ModelPart::Whole, ModelPart::Unet, ModelPart::TextEncoder, ModelPart::TextEncoder2,
                                   ModelPart::TextEncoder3};

// An adapted module: its name in the adapter and its tensors.
struct Module {
  std::string_view key;
  std::vector<ModulePart> parts;
};

// The module as the base names it, looked up; or why it is not there.
struct Lookup {
  std::optional<BaseWeight> weight;
  std::string reason;
};

Lookup find_module(const BaseModules& base, std::string_view key) {
  for (const KohyaPrefix& k : kKohyaPrefixes) {
    if (!key.starts_with(k.prefix)) continue;
    const std::string_view inner = key.substr(k.prefix.size());
    const ModelPart part = part_of_target(k.target);
    if (auto w = base.find(part, inner)) return {w, {}};
    if (auto w = base.find(ModelPart::Whole, inner)) return {w, {}};
    if (!base.has(part) && !base.has(ModelPart::Whole)) return {{}, "the base has no " + std::string(k.target)};
    return {{},
            "no module of the base's " + std::string(part_name(base.has(part) ? part : ModelPart::Whole)) +
                " is named " + std::string(inner) + " (kohya's name, '.' written '_'; the base is " +
                std::string(base.format()) + ")"};
  }
  std::string name = base_module(key);
  std::string_view inner = name;
  std::optional<ModelPart> part;
  std::string_view component;
  for (const auto& [prefix, target] : kDiffusersComponents) {
    if (inner.starts_with(prefix)) {
      inner.remove_prefix(prefix.size());
      part = part_of_target(target);
      component = target;
      break;
    }
  }
  for (ModelPart p : kAllParts) {
    if (part && p != *part && p != ModelPart::Whole) continue;
    if (auto w = base.find(p, inner)) return {w, {}};
  }
  if (auto w = base.find_unwrapped(ModelPart::Whole, inner)) return {w, {}};
  if (part && !base.has(*part) && !base.has(ModelPart::Whole)) return {{}, "the base has no " + std::string(component)};
  if (base.format() == "bfl") {
    if (const auto bfl = flux_diffusers_to_bfl(inner)) {
      return {{},
              "no module of the base is named " + std::string(inner) +
                  " (diffusers' FLUX name, held in BFL's layout by " + bfl->bfl +
                  ".weight, which the base does not have)"};
    }
    if (inner.starts_with("transformer_blocks.") || inner.starts_with("single_transformer_blocks.")) {
      return {{},
              "no module of the base is named " + std::string(inner) +
                  " (a diffusers FLUX name with no counterpart in BFL's layout: not a weight BFL's checkpoints hold)"};
    }
  }
  return {{},
          "no module of the base is named " + std::string(inner) + " (the base is " + std::string(base.format()) + ")"};
}

// Weights stored as packed integers (GPTQ/AWQ qweight, MLX and bitsandbytes 4-bit): their shapes
// are not [out, in]. (bitsandbytes' 8-bit I8 weights are [out, in] and checked as they are.)
bool packed(Dtype dtype) { return dtype == Dtype::U32 || dtype == Dtype::I32 || dtype == Dtype::U8; }

// The unpacked [out, in] of each GPTQ/AWQ qweight of the base (quantized_weights.h), by the
// qweight's name, with the name a mismatch gives it.
struct Unpacked {
  std::vector<std::uint64_t> shape;
  std::string name;
};
std::unordered_map<std::string, Unpacked> unpacked_by_qweight(std::span<const TensorView> base) {
  std::unordered_map<std::string, Unpacked> out;
  for (TensorEntry& w : unpacked_weights(base)) {
    const std::string module = w.name.substr(0, w.name.size() - 7);  // without ".weight"
    out.try_emplace(module + ".qweight", Unpacked{std::move(w.shape), module + ".qweight (unpacked)"});
  }
  return out;
}

std::string packed_reason(const TensorView& t) {
  std::string why = "not supported: the base's " + std::string(t.name) + " is a packed quantized weight (" +
                    std::string(dtype_name(t.dtype)) + "): its shape does not give the layer's in and out";
  if (std::string_view(t.name).ends_with(".qweight"))
    why += " (a GPTQ/AWQ qweight unpacks only with its qzeros and scales beside it, in AutoGPTQ's or AutoAWQ's shapes)";
  return why;
}

std::vector<Module> adapted_modules(std::span<const TensorView> tensors) {
  std::vector<Module> modules;
  std::unordered_map<std::string_view, std::size_t> index;
  for (const TensorView& t : tensors) {
    const AdapterPart* part = part_of(t.name);
    if (part == nullptr) continue;
    const std::string_view key = std::string_view(t.name).substr(0, t.name.size() - part->suffix.size());
    if (in_frozen_copy(key)) continue;
    const auto [it, added] = index.try_emplace(key, modules.size());
    if (added) modules.push_back({key, {}});
    modules[it->second].parts.push_back({part, t.shape});
  }
  // A module of only alphas or only magnitudes changes nothing alone.
  std::erase_if(modules, [](const Module& m) {
    return std::all_of(m.parts.begin(), m.parts.end(), [](const ModulePart& p) {
      return p.part->role == PartRole::Alpha || p.part->role == PartRole::Scale;
    });
  });
  return modules;
}

}  // namespace

AdapterCheck check_adapter(std::span<const TensorView> adapter, const Metadata& adapter_metadata,
                           std::span<const TensorView> base) {
  AdapterCheck out;
  const BaseModules modules_of_base(base);
  out.base_format = modules_of_base.format();
  const MetadataView meta(adapter_metadata);
  const AdapterScan scan = scan_adapter(adapter, meta);
  if (!scan.adapter) {
    out.unmatched.push_back(
        {"", scan.embedding ? "the first file is a textual-inversion embedding, not an adapter: it adds tokens, it "
                              "changes no module"
                            : "the first file is not an adapter: too few of its tensors are adapter parts "
                              "(lora_down/lora_up, lora_A/lora_B, hada_*, lokr_*, ...)"});
    return out;
  }
  out.adapter_format = scan.adapter->format;
  out.adapter_type = scan.adapter->type;
  if (base.empty()) {
    out.unmatched.push_back({"", "the base has no tensors"});
    return out;
  }
  static const Metadata kNoMetadata;
  if (scan_adapter(base, MetadataView(kNoMetadata)).adapter) {
    out.unmatched.push_back({"", "the base is an adapter itself, not a model"});
    return out;
  }
  const std::vector<Module> modules = adapted_modules(adapter);
  out.modules = modules.size();
  const auto unpacked_base = unpacked_by_qweight(base);
  if (modules.empty()) {
    out.unmatched.push_back({"", "not supported: " + out.adapter_format +
                                     " adapters name their modules by position or by a layout of their own, "
                                     "which cannot be mapped to the base's names"});
    return out;
  }
  for (const Module& m : modules) {
    Lookup found = find_module(modules_of_base, m.key);
    if (!found.weight) {
      out.unmatched.push_back({std::string(m.key), std::move(found.reason)});
      continue;
    }
    const BaseWeight& w = *found.weight;
    const TensorView& t = base[w.tensor];
    WeightShape shape{t.shape, w.row_offset, w.rows, t.name};
    if (!w.stacked_shape.empty()) shape.shape = w.stacked_shape, shape.name = w.stacked_name;
    if (packed(t.dtype)) {
      const auto it = unpacked_base.find(std::string(t.name));
      if (it == unpacked_base.end()) {
        out.unmatched.push_back({std::string(m.key), packed_reason(t)});
        continue;
      }
      shape.shape = it->second.shape, shape.name = it->second.name;
    }
    std::string why = shape_mismatch(m.parts, shape);
    if (why.empty()) {
      ++out.matched;
    } else {
      out.unmatched.push_back({std::string(m.key), std::move(why)});
    }
  }
  return out;
}

void write_adapter_check_json(const AdapterCheck& check, std::string& out) {
  Json j(out);
  j.begin_object();
  j.key("compatible");
  j.boolean(check.compatible());
  j.key("matched");
  j.number(static_cast<double>(check.matched));
  j.key("modules");
  j.number(static_cast<double>(check.modules));
  j.key("unmatched");
  j.begin_array();
  for (const AdapterMismatch& m : check.unmatched) {
    j.begin_object();
    j.key("key");
    j.string(m.key);
    j.key("reason");
    j.string(m.reason);
    j.end_object();
  }
  j.end_array();
  j.key("baseFormat");
  j.string(check.base_format);
  j.key("adapterFormat");
  check.adapter_format.empty() ? j.null() : j.string(check.adapter_format);
  j.key("adapterType");
  check.adapter_type.empty() ? j.null() : j.string(check.adapter_type);
  j.end_object();
}

}  // namespace safetensors
