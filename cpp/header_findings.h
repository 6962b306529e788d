// Findings about a header the reference can read: things it accepts that a
// careful user should know about. They never change the reference verdict.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "header.h"
#include "report.h"

namespace safetensors {

/// @brief Names and keys that appeared more than once in the header JSON.
struct DuplicateCounts {
  std::vector<std::string> tensor_names;          ///< each repeated tensor name once, in JSON order
  std::vector<std::uint32_t> tensor_name_repeats; ///< how often each appeared
  std::vector<std::string> metadata_keys;         ///< each repeated __metadata__ key once
};

/// @brief Appends findings about `header` (duplicates already resolved) to `out`.
void add_header_findings(const ParsedHeader& header, const DuplicateCounts& duplicates,
                         std::vector<Finding>& out);

}  // namespace safetensors
