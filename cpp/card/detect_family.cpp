// Family detection over the rule tables (see detect_family.h).
#include "card/detect_family.h"

#include <span>
#include <string>
#include <vector>

#include "findings/message_text.h"

namespace safetensors {
namespace {

std::span<const std::string_view> roots_of(Domain domain) {
  static constexpr std::string_view kNone[] = {""};
  switch (domain) {
    case Domain::Diffusion: return kDiffusionRoots;
    case Domain::Text: return kTextRoots;
    case Domain::Kohya: return kNone;
  }
  return kNone;
}

// The evidence for one clue ("" for a key that is absent as it should be), or nullopt when it
// fails under `root`.
std::optional<std::string> check(const KeyIndex& index, std::string_view root, const Clue& clue) {
  const IndexedKey* key = index.find(std::string(root) + std::string(clue.key));
  if (clue.absent) return key ? std::nullopt : std::optional<std::string>("");
  if (!key) return std::nullopt;
  const std::span<const std::uint64_t> shape = key->shape;
  if (clue.dim >= 0 && (static_cast<std::size_t>(clue.dim) >= shape.size() || shape[clue.dim] != clue.value)) {
    return std::nullopt;
  }
  if (clue.ratio && (shape.size() != 2 || shape[0] != clue.ratio * shape[1])) return std::nullopt;
  return std::string(key->name) + " " + format_shape(shape);
}

}  // namespace

std::optional<Family> match_family(const KeyIndex& index, Domain domain, bool adapter) {
  if (index.size() == 0) return std::nullopt;
  for (const FamilyRule& rule : kFamilyRules) {
    if (rule.domain != domain) continue;
    const std::size_t needed = adapter && rule.adapter_clues ? rule.adapter_clues : rule.clues.size();
    for (std::string_view root : roots_of(domain)) {
      std::vector<std::string> evidence;
      bool all = true;
      for (std::size_t i = 0; i < needed && !rule.clues[i].key.empty(); ++i) {
        auto found = check(index, root, rule.clues[i]);
        if (!found) {
          all = false;
          break;
        }
        if (!found->empty()) evidence.push_back(std::move(*found));
      }
      if (all)
        return Family{std::string(rule.id), std::string(family_name(rule.id)), std::string(rule.variant),
                      std::move(evidence)};
    }
  }
  return std::nullopt;
}

const NameSet& exact_rule_keys() {
  // Built once; the set views the strings, which live as long as the program.
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const FamilyRule& rule : kFamilyRules) {
      for (std::string_view root : roots_of(rule.domain)) {
        for (const Clue& clue : rule.clues) {
          if (!clue.key.empty()) out.push_back(std::string(root) + std::string(clue.key));
        }
      }
    }
    for (std::string_view root : kTextRoots) {
      for (std::string_view key : kEmbeddingKeys) out.push_back(std::string(root) + std::string(key));
      for (std::string_view key : kRouterKeys) out.push_back(std::string(root) + std::string(key));
    }
    return out;
  }();
  static const NameSet set(names);
  return set;
}

std::optional<Family> family_from_encoder(std::span<const TensorView> tensors, std::span<const EncoderClue> clues) {
  for (const EncoderClue& clue : clues) {
    const std::string_view id = clue.by_name ? "sdxl" : encoder_width_family(clue.width);
    if (id.empty()) continue;
    Family family{std::string(id), std::string(family_name(id)), "", {}};
    for (const std::uint32_t i : clue.tensors) {
      std::string evidence = std::string(tensors[i].name) + " " + format_shape(tensors[i].shape);
      if (!clue.note.empty()) evidence += " (" + std::string(clue.note) + ")";
      family.evidence.push_back(std::move(evidence));
    }
    return family;
  }
  return std::nullopt;
}

std::optional<Family> family_from_metadata(const MetadataView& meta) {
  for (const MetadataFamily& m : kMetadataFamilies) {
    const auto value = meta.text(m.key);
    if (!value) continue;
    const bool prefix = m.value.ends_with('*');
    const std::string_view want = prefix ? m.value.substr(0, m.value.size() - 1) : m.value;
    if (prefix ? value->starts_with(want) : *value == want) {
      return Family{std::string(m.id),
                    std::string(family_name(m.id)),
                    std::string(m.variant),
                    {std::string(m.key) + " = " + quote_name(*value)}};
    }
  }
  return std::nullopt;
}

std::optional<Family> combine_families(std::optional<Family> keys, std::optional<Family> meta) {
  if (!keys) return meta;
  if (!meta) return keys;
  if (keys->id == meta->id) {
    if (keys->variant.empty()) keys->variant = meta->variant;
    keys->evidence.insert(keys->evidence.end(), meta->evidence.begin(), meta->evidence.end());
    return keys;
  }
  if (keys->id == "flux1" && meta->id == "chroma") {
    meta->evidence.insert(meta->evidence.end(), keys->evidence.begin(), keys->evidence.end());
    return meta;
  }
  keys->evidence.push_back("the metadata says otherwise: " + meta->evidence.front());
  return keys;
}

std::string layer_prefix(const Family& family) {
  if (family.evidence.empty()) return {};
  const std::string& name = family.evidence.front();
  // The first all-digit token after a '.' ends the prefix.
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] != '.' || i + 1 >= name.size() || name[i + 1] < '0' || name[i + 1] > '9') continue;
    std::size_t end = i + 1;
    while (end < name.size() && name[end] >= '0' && name[end] <= '9') ++end;
    if (end < name.size() && name[end] == '.') return name.substr(0, i + 1);
  }
  return {};
}

}  // namespace safetensors
