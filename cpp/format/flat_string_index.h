// A string -> number map in one flat allocation (open addressing, linear probing): no node
// per key, unlike std::unordered_map, whose allocation per insert dominated both users
// (duplicate names of 10^6-tensor headers, the module tree of every opened file).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace safetensors {

/// @brief Keys are views: what they view must outlive the index.
class FlatStringIndex {
 public:
  /// @brief An index sized for about `expected` keys (it grows past them).
  explicit FlatStringIndex(std::size_t expected = 0);

  /// @brief The value of `key`; when absent, `value` is stored for it and returned.
  std::uint32_t find_or_add(std::string_view key, std::uint32_t value);

  /// @brief The value of `key`, or `missing` when absent.
  std::uint32_t find(std::string_view key, std::uint32_t missing) const;

 private:
  struct Slot {
    std::size_t hash = 0;
    std::string_view key;
    std::uint32_t value = 0;
    bool used = false;
  };
  void grow();

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

}  // namespace safetensors
