// Findings about where the header and the tensors sit in a loadable file: legal layouts
// that cost readers something (zero-copy loading, 32-bit sizes, per-tensor overhead).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "findings/finding.h"
#include "format/header.h"

namespace safetensors {

/// @brief Tensors larger than this are reported (HugeTensor): 2 GiB.
inline constexpr std::uint64_t kHugeTensorBytes = std::uint64_t{1} << 31;
/// @brief This many scalar (shape []) tensors or more are reported (ManyScalarTensors).
inline constexpr std::size_t kManyScalars = 1000;

/// @brief Appends HeaderNotPadded, MisalignedTensor, HugeTensor, EmptyTensor and
/// ManyScalarTensors findings. Call only once the tensors passed the layout checks
/// (step 6), so that every entry's size matches its shape and dtype.
/// @param data_start 8 + N, where the tensors' offsets start in the file
void add_layout_findings(std::span<const TensorEntry> tensors, std::uint64_t data_start, std::vector<Finding>& out);

}  // namespace safetensors
