// Adapter and embedding recognition (see adapter_detect.h and adapter_parts.h).
#include "card/adapter_detect.h"

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <string_view>
#include <unordered_map>

#include "card/adapter_parts.h"
#include "card/family_rules.h"
#include "card/key_index.h"
#include "findings/message_text.h"
#include "simdjson.h"

namespace safetensors {
namespace {

// What the parts of one adapted module tell about its weight.
struct ModuleSizes {
  std::uint64_t rank = 0, out = 0, in = 0;
  std::uint64_t out1 = 0, out2 = 0, in1 = 0, in2 = 0;  // LoKr factors
  bool conv = false;                                   // a k x k (k > 1) down projection
};

// The part `name` ends with. Runs on every tensor of every file opened (up to half of a
// model's), so the suffixes are first narrowed by two bit masks: parts whose suffix ends
// with the name's last character, and whose 8th character from the end (if the suffix has
// one) is the name's. A model's names are rejected there.
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

std::uint64_t dim(std::span<const std::uint64_t> shape, std::size_t i) { return i < shape.size() ? shape[i] : 0; }

void add_sizes(ModuleSizes& m, PartRole role, std::span<const std::uint64_t> s) {
  switch (role) {
    case PartRole::Down:
      m.rank = dim(s, 0);
      m.in = dim(s, 1);
      m.conv = m.conv || (s.size() == 4 && (s[2] > 1 || s[3] > 1));
      break;
    case PartRole::Up:
      m.out = dim(s, 0);
      if (m.rank == 0) m.rank = dim(s, 1);
      break;
    case PartRole::W1A:
      m.out1 = dim(s, 0);
      m.rank = dim(s, 1);
      break;
    case PartRole::W1B: m.in1 = dim(s, 1); break;
    case PartRole::W1:
      m.out1 = dim(s, 0);
      m.in1 = dim(s, 1);
      break;
    case PartRole::W2A:
      m.out2 = dim(s, 0);
      if (m.rank == 0) m.rank = dim(s, 1);
      break;
    case PartRole::W2B: m.in2 = dim(s, 1); break;
    case PartRole::W2:
      m.out2 = dim(s, 0);
      m.in2 = dim(s, 1);
      break;
    case PartRole::Full:
      m.out = dim(s, 0);
      m.in = dim(s, 1);
      break;
    case PartRole::Mid:
    case PartRole::Alpha:
    case PartRole::Scale:
    case PartRole::Other: break;
  }
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

// Text-encoder widths of Stable Diffusion: CLIP ViT-L 768 (1.x), OpenCLIP ViT-H 1024 (2.x).
std::optional<Family> family_from_width(std::uint64_t width, std::string evidence) {
  std::string_view id = width == 768 ? "sd1" : width == 1024 ? "sd2" : "";
  if (id.empty()) return std::nullopt;
  return Family{std::string(id), std::string(family_name(id)), "", {std::move(evidence)}};
}

std::string describe_tensor(const TensorView& t) { return std::string(t.name) + " " + format_shape(t.shape); }

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

}  // namespace

AdapterScan scan_adapter(std::span<const TensorView> tensors, const MetadataView& meta) {
  AdapterScan out;
  if (embedding_scan(tensors, out) || lora_diffusion_scan(tensors, meta, out)) return out;

  // Modules in first-seen order; std::string_view keys point into the tensors' names.
  std::unordered_map<std::string_view, std::size_t> index;
  std::vector<std::pair<std::string_view, ModuleSizes>> modules;
  std::map<std::string_view, std::size_t> type_counts;
  std::size_t parts = 0;
  std::string_view alpha_tensor;
  for (std::uint32_t i = 0; i < tensors.size(); ++i) {
    if ((i - parts) * 2 > tensors.size()) return out;  // parts can no longer be half
    const TensorView& t = tensors[i];
    const AdapterPart* part = part_of(t.name);
    if (!part) continue;
    ++parts;
    if (!part->type.empty()) ++type_counts[part->type];
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
    std::string_view part_name = target;
    if (part_name.empty()) {
      // PEFT / diffusers: the model part when the names start with one, else the leaf
      // module names (q_proj, v_proj, ...), as PEFT's target_modules lists them.
      std::string_view rest = name.starts_with("base_model.model.") ? name.substr(17) : name;
      const std::string_view first = rest.substr(0, rest.find('.'));
      if (first == "unet" || first == "transformer" || first.starts_with("text_encoder")) {
        part_name = first;
      } else {
        part_name = name.substr(name.rfind('.') + 1);
      }
    }
    if (std::find(a.targets.begin(), a.targets.end(), part_name) == a.targets.end()) a.targets.emplace_back(part_name);
    // The adapted weight, for the family rules.
    TensorEntry base;
    base.name = target.empty() ? std::string(name) + ".weight" : std::string(name);
    base.shape = weight_shape(m, a.type == "dora" ? "lora" : a.type);
    out.base_weights.push_back(std::move(base));
  }
  if (a.type == "lora" && conv) a.type = "locon";

  const bool peft = !modules.empty() && modules.front().first.starts_with("base_model.model.");
  a.format = out.kohya_names || meta.get("ss_network_module") ? "kohya" : peft ? "peft" : "diffusers";
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
