// Counting NaN, infinities and non-zero values in a tensor's bytes, fed in
// pieces of any size (elements split between pieces are carried over).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "format/dtype.h"

namespace safetensors {

/// @brief What a scan found in one tensor.
struct ValueCounts {
  std::uint64_t nan = 0;      ///< NaN values (C64: per component)
  std::uint64_t pos_inf = 0;  ///< +infinity
  std::uint64_t neg_inf = 0;  ///< -infinity
  bool nonzero = false;       ///< some value is not ±0 (NaN and infinities included; F6: some byte is not 0)

  /// @brief Every value fed is ±0 (the data scan's allZero; it asks only of tensors with values).
  bool all_zero() const { return !nonzero; }
};

/// @brief Scans one tensor's bytes in order, by the dtype's ScanClass (format/dtype.h). Integer,
/// BOOL and packed kinds only get the zero test.
class ValueScanner {
 public:
  explicit ValueScanner(Dtype dtype = Dtype::U8);

  /// @brief Feeds the next `size` bytes of the tensor.
  void feed(const std::uint8_t* data, std::size_t size);

  /// @brief Counts so far (complete once every byte was fed).
  const ValueCounts& counts() const { return counts_; }

 private:
  void scan_units(const std::uint8_t* data, std::size_t units);

  Dtype dtype_;
  ScanClass class_;
  std::size_t unit_;                     // bytes per scanned unit: an IEEE word, else a byte
  std::array<std::uint8_t, 8> carry_{};  // the start of a unit split between feeds
  std::size_t carried_ = 0;
  std::array<std::uint64_t, 256> histogram_{};  // byte counts of 1-byte float kinds, folded into counts_
  bool histogram_used_ = false;
  ValueCounts counts_;
};

}  // namespace safetensors
