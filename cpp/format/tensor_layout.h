// Step 6 of the reference checks: tensors sorted by data_offsets must tile the
// data section from byte 0, each exactly as long as its shape and dtype say.
#pragma once

#include <cstdint>
#include <vector>

#include "format/header.h"
#include "format/reference_error.h"

namespace safetensors {

/// @brief Outcome of the layout checks, with what a message needs.
struct LayoutResult {
  ReferenceError error = ReferenceError::None;  ///< first failure, in the reference's order
  std::size_t failed = 0;                       ///< index (after sorting) of the failing tensor
  std::uint64_t expected_begin = 0;             ///< where the failing tensor had to start
  std::uint64_t elements = 0;                   ///< element count of the failing tensor, when known
  std::uint64_t data_end = 0;                   ///< end of the last tensor when error is None
  bool bits_overflowed = false;                 ///< ValidationOverflow in elements x bits, not in the shape
};

/// @brief Element count as the reference computes it: product left to right from 1, checked.
/// @return false on overflow.
bool element_count(const std::vector<std::uint64_t>& shape, std::uint64_t& out);

/// @brief Sorts `tensors` by (begin, end), stably, and checks them in that order.
LayoutResult check_layout(std::vector<TensorEntry>& tensors);

}  // namespace safetensors
