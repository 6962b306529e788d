// Comparisons of tensor names for loops over every name of a model. They compare 8 bytes at
// a time: the wasm build's libc compares byte by byte (memcmp behind std::string_view's ==
// and starts_with), and a 20,000-tensor model's names are a megabyte.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace safetensors {

/// @brief Length of the common prefix of `a` and `b`.
inline std::size_t common_prefix(std::string_view a, std::string_view b) {
  const std::size_t n = std::min(a.size(), b.size());
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t x = 0, y = 0;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) return i + static_cast<std::size_t>(std::countr_zero(x ^ y) / 8);  // little-endian
  }
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

/// @brief a == b.
inline bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && common_prefix(a, b) == a.size();
}

/// @brief name.starts_with(prefix).
inline bool name_starts_with(std::string_view name, std::string_view prefix) {
  return name.size() >= prefix.size() && common_prefix(name, prefix) == prefix.size();
}

}  // namespace safetensors
