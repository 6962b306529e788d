// NumPy's .npy header (numpy/lib/format.py; NEP 1): the magic "\x93NUMPY", a version, a
// little-endian header length (2 bytes in 1.0, 4 in 2.0 and 3.0) and a Python dict literal
// with 'descr', 'fortran_order' and 'shape'. An object array ('|O') stores a pickle after it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace safetensors::container {

/// @brief Bytes that let read_npy_header see the whole header: magic, version and length, and
/// the longest header read (larger headers are reported as bad).
inline constexpr std::uint64_t kNpyMaxHeader = 10 + 65536;

/// @brief A parsed header.
struct NpyHeader {
  std::string descr;                 ///< e.g. "<f4", "|O"
  bool fortran_order = false;        ///< column-major data
  std::vector<std::uint64_t> shape;  ///< dimensions
  std::uint64_t data_offset = 0;     ///< first byte after the header
  bool object = false;               ///< descr is an object dtype: the data is a pickle
};

/// @brief Whether `bytes` start with the .npy magic.
bool is_npy(std::span<const std::uint8_t> bytes);

/// @brief Parses the header at the start of `bytes` (nullopt when it does not parse).
std::optional<NpyHeader> read_npy_header(std::span<const std::uint8_t> bytes);

}  // namespace safetensors::container
