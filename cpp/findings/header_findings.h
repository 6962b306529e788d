// Findings about a header the reference can read: things it accepts that a careful
// user should know about (repeats, tolerated encodings, whitespace). They never change
// the reference verdict.
#pragma once

#include <cstdint>
#include <vector>

#include "findings/finding.h"
#include "format/duplicates.h"
#include "format/header.h"

namespace safetensors {

/// @brief Trailing padding beyond this many bytes is reported (OversizedHeader).
inline constexpr std::uint64_t kOversizedPadding = 4096;

/// @brief Whitespace around the header's JSON value.
struct HeaderSpacing {
  std::uint64_t leading = 0;   ///< bytes before '{'
  std::uint64_t trailing = 0;  ///< bytes after the closing '}'
};

/// @brief Appends DuplicateTensorName, DuplicateMetadataKey, ArrayTensorEntry, MapDtype and
/// UnknownTensorField findings about `header` (duplicates already resolved).
void add_header_findings(const ParsedHeader& header, const DuplicateCounts& duplicates, std::vector<Finding>& out);

/// @brief Appends LeadingWhitespace and OversizedHeader findings for a header of `header_length` bytes.
void add_spacing_findings(HeaderSpacing spacing, std::uint64_t header_length, std::vector<Finding>& out);

}  // namespace safetensors
