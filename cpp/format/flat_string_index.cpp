// The flat string index (see flat_string_index.h).
#include "format/flat_string_index.h"

#include <functional>

namespace safetensors {

FlatStringIndex::FlatStringIndex(std::size_t expected) {
  std::size_t capacity = 16;
  while (capacity < 2 * expected) capacity *= 2;
  slots_.resize(capacity);
}

std::uint32_t FlatStringIndex::find_or_add(std::string_view key, std::uint32_t value) {
  if (2 * (size_ + 1) > slots_.size()) grow();
  const std::size_t h = std::hash<std::string_view>{}(key);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t at = h & mask;; at = (at + 1) & mask) {
    Slot& slot = slots_[at];
    if (!slot.used) {
      slot = {h, key, value, true};
      ++size_;
      return value;
    }
    if (slot.hash == h && slot.key == key) return slot.value;
  }
}

std::uint32_t FlatStringIndex::find(std::string_view key, std::uint32_t missing) const {
  const std::size_t h = std::hash<std::string_view>{}(key);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t at = h & mask;; at = (at + 1) & mask) {
    const Slot& slot = slots_[at];
    if (!slot.used) return missing;
    if (slot.hash == h && slot.key == key) return slot.value;
  }
}

void FlatStringIndex::grow() {
  std::vector<Slot> old(slots_.size() * 2);
  old.swap(slots_);
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (!s.used) continue;
    std::size_t at = s.hash & mask;
    while (slots_[at].used) at = (at + 1) & mask;
    slots_[at] = s;
  }
}

}  // namespace safetensors
