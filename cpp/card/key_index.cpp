// Patterns of names for the detection rules (see key_index.h).
#include "card/key_index.h"

namespace safetensors {
namespace {

bool is_separator(char c) { return c == '.' || c == '_' || c == ':'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::string key_pattern(std::string_view name) {
  std::string out;
  key_pattern(name, out);
  return out;
}

void key_pattern(std::string_view name, std::string& out) {
  out.clear();
  std::size_t i = 0;
  while (i < name.size()) {
    std::size_t end = i;
    while (end < name.size() && !is_separator(name[end])) ++end;
    bool digits = end > i;
    for (std::size_t j = i; j < end && digits; ++j) digits = is_digit(name[j]);
    if (digits) {
      out += '#';
    } else {
      out.append(name.substr(i, end - i));
    }
    if (end < name.size()) out += name[end];
    i = end + 1;
  }
}

void KeyIndex::add(std::string_view name, const std::vector<std::uint64_t>& shape) {
  ++count_;
  if (exact_) {
    const auto next = static_cast<std::uint32_t>(exact_keys_.size());
    if (names_.find_or_add(name, next) == next) exact_keys_.push_back(IndexedKey{name, &shape});
    return;
  }
  // Most names repeat a pattern already seen (every layer of a model): look up first, so
  // only new patterns allocate.
  key_pattern(name, scratch_);
  if (keys_.find(scratch_) == keys_.end()) keys_.emplace(scratch_, IndexedKey{name, &shape});
}

const IndexedKey* KeyIndex::find(std::string_view example) const {
  if (exact_) {
    const std::uint32_t i = names_.find(example, UINT32_MAX);
    return i == UINT32_MAX ? nullptr : &exact_keys_[i];
  }
  const auto it = keys_.find(key_pattern(example));
  return it == keys_.end() ? nullptr : &it->second;
}

}  // namespace safetensors
