// Length prefix checks, in the reference's order (read_metadata in lib.rs).
#include "format/header_prefix.h"

namespace safetensors {

HeaderExtent read_header_extent(std::span<const std::uint8_t> first_bytes, std::uint64_t file_size) {
  HeaderExtent extent;
  if (file_size < kLengthPrefixSize || first_bytes.size() < kLengthPrefixSize) {
    extent.error = ReferenceError::HeaderTooSmall;
    return extent;
  }
  std::uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | first_bytes[static_cast<std::size_t>(i)];
  extent.header_length = n;
  if (n > kMaxHeaderLength) {
    extent.error = ReferenceError::HeaderTooLarge;
  } else if (n > file_size - kLengthPrefixSize) {  // 8 + n > file_size, without overflow
    extent.error = ReferenceError::InvalidHeaderLength;
  }
  return extent;
}

}  // namespace safetensors
