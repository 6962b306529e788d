// What the card builder reads of a tensor: views, so that the card is built from the header
// as analysed (TensorEntry) or as read back from the JS table (cpp/wasm/header_table.h)
// without copying 20,000 names and shapes.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "format/header.h"

namespace safetensors {

/// @brief One tensor as the card sees it; the name and shape belong to someone else.
struct TensorView {
  std::string_view name;
  Dtype dtype = Dtype::U8;
  std::span<const std::uint64_t> shape;
  std::uint64_t begin = 0;  ///< data_offsets[0]
  std::uint64_t end = 0;    ///< data_offsets[1]
};

/// @brief Views of `tensors`, which must outlive them.
inline std::vector<TensorView> views_of(std::span<const TensorEntry> tensors) {
  std::vector<TensorView> out;
  out.reserve(tensors.size());
  for (const TensorEntry& t : tensors) out.push_back({t.name, t.dtype, t.shape, t.begin, t.end});
  return out;
}

}  // namespace safetensors
