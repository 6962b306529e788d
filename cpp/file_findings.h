// Findings about how a readable file is laid out and what its metadata says.
// Like every finding they describe the file; they never change the verdict.
#pragma once

#include <cstdint>
#include <vector>

#include "report.h"

namespace safetensors {

/// @brief Tensors larger than this are reported (HugeTensor): 2 GiB.
inline constexpr std::uint64_t kHugeTensorBytes = std::uint64_t{1} << 31;
/// @brief This many scalar (shape []) tensors or more are reported (ManyScalarTensors).
inline constexpr std::size_t kManyScalars = 1000;
/// @brief Trailing padding beyond this many bytes is reported (OversizedHeader).
inline constexpr std::uint64_t kOversizedPadding = 4096;
/// @brief Metadata values longer than this are reported (LargeMetadataValue): 64 KiB.
inline constexpr std::size_t kLargeMetadataValue = 64 * 1024;

/// @brief Whitespace around the header's JSON value.
struct HeaderSpacing {
  std::uint64_t leading = 0;   ///< bytes before '{'
  std::uint64_t trailing = 0;  ///< bytes after the closing '}'
};

/// @brief Appends LeadingWhitespace and OversizedHeader findings.
void add_spacing_findings(const Report& report, HeaderSpacing spacing, std::vector<Finding>& out);

/// @brief Appends HeaderNotPadded, MisalignedTensor, HugeTensor, EmptyTensor and
/// ManyScalarTensors findings. Call only once the tensors passed the layout checks
/// (step 6), so that every entry's size matches its shape and dtype.
void add_layout_findings(const Report& report, std::vector<Finding>& out);

/// @brief Appends UnknownMetadataKey, UnusualFormat, LargeMetadataValue and
/// UnlabeledIntegerWeights findings.
void add_metadata_findings(const Report& report, std::vector<Finding>& out);

}  // namespace safetensors
