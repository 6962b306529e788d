// Patterns of names for the detection rules (see key_index.h).
#include "card/key_index.h"

namespace safetensors {
namespace {

bool is_separator(char c) { return c == '.' || c == '_' || c == ':'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::string key_pattern(std::string_view name) {
  std::string out;
  out.reserve(name.size());
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
  return out;
}

void KeyIndex::add(std::string_view name, const std::vector<std::uint64_t>& shape) {
  ++count_;
  keys_.try_emplace(key_pattern(name), IndexedKey{name, &shape});
}

const IndexedKey* KeyIndex::find(std::string_view example) const {
  const auto it = keys_.find(key_pattern(example));
  return it == keys_.end() ? nullptr : &it->second;
}

}  // namespace safetensors
