// The reference reads the header into hash maps: a repeated tensor name or
// metadata key is accepted and the last one wins (docs/reference-rules.md, step 5).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "format/header.h"

namespace safetensors {

/// @brief Names and keys that appeared more than once in the header JSON.
struct DuplicateCounts {
  std::vector<std::string> tensor_names;           ///< each repeated tensor name once, in JSON order
  std::vector<std::uint32_t> tensor_name_repeats;  ///< how often each appeared
  std::vector<std::string> metadata_keys;          ///< each repeated __metadata__ key once
};

/// @brief Keeps the last entry of each repeated tensor name (with its quirks) and the last
/// value of each repeated metadata key, in first-seen order; says what repeated.
DuplicateCounts resolve_duplicates(ParsedHeader& parsed);

}  // namespace safetensors
