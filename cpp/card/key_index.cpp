// Patterns of names for the detection rules (see key_index.h).
#include "card/key_index.h"

#include <algorithm>
#include <cstring>

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

namespace {
constexpr std::uint32_t kSignatureBits = 1u << 16;  // 8 KiB: a few hundred names leave it sparse
}  // namespace

NameSet::NameSet(const std::vector<std::string>& names)
    : bits_(kSignatureBits / 64), index_(names.size()), size_(names.size()) {
  for (std::uint32_t i = 0; i < names.size(); ++i) {
    const std::uint32_t bit = signature_bit(names[i]);
    bits_[bit / 64] |= std::uint64_t{1} << (bit % 64);
    index_.find_or_add(names[i], i);
  }
}

std::uint32_t NameSet::find(std::string_view name) const {
  const std::uint32_t bit = signature_bit(name);
  if (!(bits_[bit / 64] >> (bit % 64) & 1)) return kAbsent;
  return index_.find(name, kAbsent);
}

std::uint32_t NameSet::signature_bit(std::string_view name) {
  std::uint64_t first = 0, last = 0;
  if (name.size() >= 8) {
    std::memcpy(&first, name.data(), 8);
    std::memcpy(&last, name.data() + name.size() - 8, 8);
  } else {
    for (char c : name) first = first << 8 | static_cast<unsigned char>(c);
  }
  std::uint64_t h = (name.size() + 1) * 0x9E3779B97F4A7C15ull;
  h = (h ^ first) * 0xC2B2AE3D27D4EB4Full;
  h = (h ^ last) * 0x165667B19E3779F9ull;
  return static_cast<std::uint32_t>(h >> 48);  // the top 16 bits: kSignatureBits
}

void KeyIndex::add(std::string_view name, std::span<const std::uint64_t> shape) {
  ++count_;
  if (wanted_) {
    all_.push_back(IndexedKey{name, shape});
    const std::uint32_t wanted = wanted_->find(name);
    if (wanted != NameSet::kAbsent && found_[wanted] == NameSet::kAbsent) {
      found_[wanted] = static_cast<std::uint32_t>(all_.size() - 1);
    }
    return;
  }
  // Most names repeat a pattern already seen (every layer of a model): look up first, so
  // only new patterns allocate.
  key_pattern(name, scratch_);
  if (keys_.find(scratch_) == keys_.end()) keys_.emplace(scratch_, IndexedKey{name, shape});
}

const IndexedKey* KeyIndex::find(std::string_view example) const {
  if (wanted_) {
    if (const std::uint32_t wanted = wanted_->find(example); wanted != NameSet::kAbsent) {
      const std::uint32_t i = found_[wanted];
      return i == NameSet::kAbsent ? nullptr : &all_[i];
    }
    const auto it = std::find_if(all_.begin(), all_.end(), [&](const IndexedKey& k) { return k.name == example; });
    return it == all_.end() ? nullptr : &*it;
  }
  const auto it = keys_.find(key_pattern(example));
  return it == keys_.end() ? nullptr : &it->second;
}

}  // namespace safetensors
