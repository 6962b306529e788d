// Steps 1-3 of the reference checks: the 8-byte little-endian header length
// against the 100,000,000-byte limit and the file size.
#pragma once

#include <cstdint>
#include <span>

#include "format/reference_error.h"

namespace safetensors {

/// @brief The reference's MAX_HEADER_SIZE: a longer header is HeaderTooLarge.
inline constexpr std::uint64_t kMaxHeaderLength = 100'000'000;

/// @brief Size of the little-endian u64 that starts every file.
inline constexpr std::uint64_t kLengthPrefixSize = 8;

/// @brief The claimed header length and whether it passes steps 1-3.
struct HeaderExtent {
  ReferenceError error = ReferenceError::None;  ///< None, HeaderTooSmall, HeaderTooLarge or InvalidHeaderLength
  std::uint64_t header_length = 0;              ///< N as written (0 when the file is under 8 bytes)
};

/// @brief Reads N from the first bytes of a file of `file_size` bytes.
/// @param first_bytes at least min(8, file_size) bytes from the start of the file.
HeaderExtent read_header_extent(std::span<const std::uint8_t> first_bytes, std::uint64_t file_size);

}  // namespace safetensors
