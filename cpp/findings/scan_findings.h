// Findings of the data scan (validateSafetensors with scanData): tensors holding NaN or
// infinities, and tensors of zeros. Fed one tensor at a time with the scanner's counts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "convert/value_scan.h"
#include "findings/finding.h"

namespace safetensors {

/// @brief What the findings need from a whole scan: how many tensors, and the first of each kind.
class ScanTally {
 public:
  /// @brief Adds the counts of the tensor at `index` (in data order, of `dtype`) once all its bytes
  /// were scanned. A BOOL tensor of zeros (all false: an empty mask) is not an AllZeroTensor.
  void add(std::size_t index, Dtype dtype, const ValueCounts& counts);

  /// @brief Tensors with NaN or infinities so far, and the index and counts of the first.
  std::uint64_t nonfinite_tensors() const { return nonfinite_tensors_; }
  std::size_t first_nonfinite() const { return first_nonfinite_; }
  /// @brief Tensors of zeros so far, and the index of the first.
  std::uint64_t zero_tensors() const { return zero_tensors_; }
  std::size_t first_zero() const { return first_zero_; }

  /// @brief NonFiniteValues and AllZeroTensor findings, naming the first tensor of each kind.
  std::vector<Finding> findings(std::string_view first_nonfinite_name, std::string_view first_zero_name) const;

 private:
  std::uint64_t nonfinite_tensors_ = 0;
  std::size_t first_nonfinite_ = 0;
  ValueCounts first_nonfinite_counts_;
  std::uint64_t zero_tensors_ = 0;
  std::size_t first_zero_ = 0;
};

}  // namespace safetensors
