// Adapter and embedding recognition (see adapter_detect.h and adapter_parts.h).
#include "adapter/adapter_detect.h"

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <string_view>
#include <unordered_map>

#include "adapter/adapter_layouts.h"
#include "adapter/adapter_modules.h"
#include "adapter/adapter_parts.h"
#include "adapter/part_dims.h"
#include "simdjson.h"

namespace safetensors {
namespace {

// What the parts of one adapted module tell about its weight.
struct ModuleSizes {
  std::uint64_t rank = 0, out = 0, in = 0;
  std::uint64_t out1 = 0, out2 = 0, in1 = 0, in2 = 0;  // LoKr factors
  bool conv = false;                                   // a k x k (k > 1) down projection
};

}  // namespace

// Runs on every tensor of every file opened (up to half of a model's), so the suffixes are
// first narrowed by two bit masks: parts whose suffix ends with the name's last character, and
// whose 8th character from the end (if the suffix has one) is the name's. A model's names are
// rejected there.
const AdapterPart* part_of(std::string_view name) {
  constexpr std::size_t kParts = std::size(kAdapterParts);
  static_assert(kParts <= 64, "one bit per part");
  struct Masks {
    std::array<std::uint64_t, 256> last{}, eighth{};
  };
  static const Masks masks = [] {
    Masks m;
    for (std::size_t i = 0; i < kParts; ++i) {
      const std::string_view suffix = kAdapterParts[i].suffix;
      m.last[static_cast<unsigned char>(suffix.back())] |= std::uint64_t{1} << i;
      if (suffix.size() >= 8) {
        m.eighth[static_cast<unsigned char>(suffix[suffix.size() - 8])] |= std::uint64_t{1} << i;
      } else {
        for (std::uint64_t& e : m.eighth) e |= std::uint64_t{1} << i;  // no 8th character to compare
      }
    }
    return m;
  }();
  if (name.size() < 3) return nullptr;
  std::uint64_t candidates = masks.last[static_cast<unsigned char>(name.back())];
  if (name.size() >= 8) candidates &= masks.eighth[static_cast<unsigned char>(name[name.size() - 8])];
  for (; candidates != 0; candidates &= candidates - 1) {
    const AdapterPart& p = kAdapterParts[std::countr_zero(candidates)];
    if (name.size() > p.suffix.size() && name.ends_with(p.suffix)) return &p;
  }
  return nullptr;
}

namespace {

// The sizes a part gives (part_dims.h): rank from the part that leads, else from any; out and
// in of the module or of the factor its slot names.
void add_sizes(ModuleSizes& m, PartRole role, std::span<const std::uint64_t> s) {
  const RoleDims& r = role_dims(role);
  const PartDims d = part_dims(r, s, InputSpan::Channels);
  if (r.rank != kNoDim && (r.leads || m.rank == 0)) m.rank = d.rank;
  std::uint64_t& out = r.slot == DimSlot::First ? m.out1 : r.slot == DimSlot::Second ? m.out2 : m.out;
  std::uint64_t& in = r.slot == DimSlot::First ? m.in1 : r.slot == DimSlot::Second ? m.in2 : m.in;
  if (r.out != kNoDim) out = d.out;
  if (r.in != kNoDim) in = d.in;
  m.conv = m.conv || wide_kernel(r, s);
}

// The adapted weight's [out, in]: LoHa's factors multiply elementwise (same shape as
// W1A x W1B), LoKr's form a Kronecker product (sizes multiply).
std::vector<std::uint64_t> weight_shape(const ModuleSizes& m, std::string_view type) {
  std::uint64_t out = m.out, in = m.in;
  if (type == "lokr") {
    out = (m.out1 && m.out2) ? m.out1 * m.out2 : 0;
    in = (m.in1 && m.in2) ? m.in1 * m.in2 : 0;
  } else if (type == "loha") {
    out = m.out1;
    in = m.in1;
  }
  if (out == 0 || in == 0) return {};
  return {out, in};
}

std::string_view kohya_target(std::string_view module) {
  for (const KohyaPrefix& k : kKohyaPrefixes) {
    if (module.starts_with(k.prefix)) return k.target;
  }
  return {};
}

// r and lora_alpha of diffusers' lora_adapter_metadata (LoraConfig as JSON, maybe with
// component prefixes such as "transformer.r").
void read_lora_config(std::string_view json, Adapter& a) {
  simdjson::dom::parser parser;
  simdjson::dom::object obj;
  if (parser.parse(json.data(), json.size()).get(obj) != simdjson::SUCCESS) return;
  for (auto field : obj) {
    const std::string_view key = field.key;
    double v = 0;
    if (field.value.get(v) != simdjson::SUCCESS) continue;
    if ((key == "r" || key.ends_with(".r")) && !a.rank) a.rank = v;
    if ((key == "lora_alpha" || key.ends_with(".lora_alpha")) && !a.alpha) a.alpha = v;
  }
}

}  // namespace

AdapterScan scan_adapter(std::span<const TensorView> tensors, const MetadataView& meta) {
  AdapterScan out;
  if (whole_file_layout(tensors, meta, out)) return out;

  // Modules in first-seen order; std::string_view keys point into the tensors' names.
  std::unordered_map<std::string_view, std::size_t> index;
  std::vector<std::pair<std::string_view, ModuleSizes>> modules;
  std::map<std::string_view, std::size_t> type_counts;
  std::string_view part_format;  // a format only some parts have (MLX's lora_a, diffusers' processors)
  std::size_t parts = 0;
  std::string_view alpha_tensor;
  for (std::uint32_t i = 0; i < tensors.size(); ++i) {
    if ((i - parts) * 2 > tensors.size()) return out;  // parts can no longer be half
    const TensorView& t = tensors[i];
    const AdapterPart* part = part_of(t.name);
    if (!part) continue;
    ++parts;
    if (!part->type.empty()) ++type_counts[part->type];
    if (!part->format.empty()) part_format = part->format;
    if (part->role == PartRole::Alpha && alpha_tensor.empty()) alpha_tensor = t.name;
    const std::string_view module = std::string_view(t.name).substr(0, t.name.size() - part->suffix.size());
    auto [it, added] = index.try_emplace(module, modules.size());
    if (added) modules.push_back({module, ModuleSizes{}});
    add_sizes(modules[it->second].second, part->role, t.shape);
  }
  if (parts == 0 || parts * 2 < tensors.size() || type_counts.empty()) return out;

  Adapter a;
  a.type = "unknown";
  for (std::string_view type : kAdapterTypePriority) {
    if (type_counts.contains(type)) {
      a.type = type;
      break;
    }
  }
  std::map<std::uint64_t, std::size_t> ranks;
  bool conv = false;
  for (const auto& [name, m] : modules) {
    if (m.rank) ++ranks[m.rank];
    conv = conv || m.conv;
    const std::string_view target = kohya_target(name);
    out.kohya_names = out.kohya_names || !target.empty();
    // kohya: the model part its prefix names; else the module as the base model names it
    // (for the family rules) and as a config's target modules name it (q_proj, to_out.0); PEFT's
    // copies of a modules_to_save module are never targets: its trained copy stands for the
    // module (base_module), its frozen original is left out.
    if (target.empty() && in_frozen_copy(name)) continue;
    TensorEntry base;
    base.name = target.empty() ? base_module(name) + ".weight" : std::string(name);
    base.shape = weight_shape(m, a.type == "dora" ? "lora" : a.type);
    const std::string_view module = std::string_view(base.name).substr(0, base.name.size() - 7);
    const std::string part_name(target.empty() ? target_name(module) : target);
    if (std::find(a.targets.begin(), a.targets.end(), part_name) == a.targets.end()) a.targets.push_back(part_name);
    out.base_weights.push_back(std::move(base));
  }
  if (a.type == "lora" && conv) a.type = "locon";

  const bool peft = !modules.empty() && modules.front().first.starts_with(kPeftPrefix);
  a.format = out.kohya_names || meta.get("ss_network_module") ? "kohya"
             : !part_format.empty()                           ? part_format
             : peft                                           ? "peft"
                                                              : "diffusers";
  if (const auto module = meta.text("ss_network_module")) a.network_module = *module;
  if (const auto dim = meta.get("ss_network_dim")) a.rank = parse_number(*dim);
  if (const auto alpha = meta.get("ss_network_alpha")) a.alpha = parse_number(*alpha);
  if (const auto config = meta.get("lora_adapter_metadata")) read_lora_config(*config, a);
  if (!a.rank && !ranks.empty()) {
    a.rank = static_cast<double>(
        std::max_element(ranks.begin(), ranks.end(), [](auto& x, auto& y) { return x.second < y.second; })->first);
  }
  if (!a.alpha) a.alpha_tensor = alpha_tensor;
  out.adapter = std::move(a);
  return out;
}

}  // namespace safetensors
