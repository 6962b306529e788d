// Offsets, overflow and size checks (Metadata::validate in the reference's lib.rs).
#include "format/tensor_layout.h"

#include <algorithm>

namespace safetensors {

bool element_count(const std::vector<std::uint64_t>& shape, std::uint64_t& out) {
  std::uint64_t count = 1;
  for (std::uint64_t d : shape) {
    if (__builtin_mul_overflow(count, d, &count)) return false;
  }
  out = count;
  return true;
}

LayoutResult check_layout(std::vector<TensorEntry>& tensors) {
  const auto by_offsets = [](const TensorEntry& a, const TensorEntry& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  };
  // Writers usually list tensors in data order: check before paying for a sort that moves every entry.
  if (!std::is_sorted(tensors.begin(), tensors.end(), by_offsets))
    std::stable_sort(tensors.begin(), tensors.end(), by_offsets);
  LayoutResult result;
  std::uint64_t start = 0;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const TensorEntry& t = tensors[i];
    result.failed = i;
    result.expected_begin = start;
    if (t.begin != start || t.end < t.begin) {
      result.error = ReferenceError::InvalidOffset;
      return result;
    }
    start = t.end;
    std::uint64_t elements = 0, bits = 0;
    if (!element_count(t.shape, elements)) {
      result.error = ReferenceError::ValidationOverflow;
      return result;
    }
    result.elements = elements;
    if (__builtin_mul_overflow(elements, std::uint64_t{dtype_bits(t.dtype)}, &bits)) {
      result.error = ReferenceError::ValidationOverflow;
      result.bits_overflowed = true;
      return result;
    }
    if (bits % 8 != 0) {
      result.error = ReferenceError::MisalignedSlice;
      return result;
    }
    if (t.end - t.begin != bits / 8) {
      result.error = ReferenceError::TensorInvalidInfo;
      return result;
    }
  }
  result.failed = 0;
  result.data_end = start;
  return result;
}

}  // namespace safetensors
