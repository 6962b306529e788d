// Duplicate resolution: a flat hash table finds whether any name repeats (the common
// answer is no, and it must be cheap for 10^6 tensors); only then are entries dropped.
#include "format/duplicates.h"

#include "format/flat_string_index.h"

#include <string_view>
#include <unordered_map>

namespace safetensors {
namespace {

// True when some tensor name appears twice: O(n), no allocation per name.
bool has_duplicate_names(const std::vector<TensorEntry>& tensors) {
  FlatStringIndex index(tensors.size());
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    if (index.find_or_add(tensors[i].name, static_cast<std::uint32_t>(i)) != i) return true;
  }
  return false;
}

void keep_last_tensor_entries(ParsedHeader& parsed, DuplicateCounts& counts) {
  const std::size_t n = parsed.tensors.size();
  std::vector<bool> keep(n);
  {
    // Keys view the names: finish with them before any entry is moved.
    std::unordered_map<std::string_view, std::pair<std::size_t, std::uint32_t>> last_and_count;
    for (std::size_t i = 0; i < n; ++i) {
      auto& [last, count] = last_and_count[parsed.tensors[i].name];
      last = i;
      if (++count == 2) counts.tensor_names.push_back(parsed.tensors[i].name);
    }
    for (const auto& name : counts.tensor_names) counts.tensor_name_repeats.push_back(last_and_count[name].second);
    for (std::size_t i = 0; i < n; ++i) keep[i] = last_and_count[parsed.tensors[i].name].first == i;
  }
  std::vector<TensorEntry> kept;
  std::vector<EntryQuirks> kept_quirks;
  for (std::size_t i = 0; i < n; ++i) {
    if (!keep[i]) continue;
    kept.push_back(std::move(parsed.tensors[i]));
    kept_quirks.push_back(parsed.quirks[i]);
  }
  parsed.tensors = std::move(kept);
  parsed.quirks = std::move(kept_quirks);
}

// First-seen order, last value.
void keep_last_metadata_values(ParsedHeader& parsed, DuplicateCounts& counts) {
  std::unordered_map<std::string, std::size_t> position;
  std::vector<std::pair<std::string, std::string>> merged;
  std::vector<bool> repeated;
  for (auto& [key, value] : parsed.metadata) {
    auto [it, inserted] = position.emplace(key, merged.size());
    if (inserted) {
      merged.emplace_back(std::move(key), std::move(value));
      repeated.push_back(false);
      continue;
    }
    if (!repeated[it->second]) counts.metadata_keys.push_back(it->first);
    repeated[it->second] = true;
    merged[it->second].second = std::move(value);
  }
  parsed.metadata = std::move(merged);
}

}  // namespace

DuplicateCounts resolve_duplicates(ParsedHeader& parsed) {
  DuplicateCounts counts;
  if (has_duplicate_names(parsed.tensors)) keep_last_tensor_entries(parsed, counts);
  keep_last_metadata_values(parsed, counts);
  return counts;
}

}  // namespace safetensors
