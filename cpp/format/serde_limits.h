// Two things serde_json (the reference's JSON reader) refuses in a document that
// simdjson reads: nesting past its recursion limit, counted as serde_json counts
// it, and numbers that may be out of range in serde_json's arithmetic.
#pragma once

#include <cstddef>

#include "simdjson.h"

namespace safetensors {

/// @brief serde_json's recursion limit: it refuses the 128th nested container
/// (serde_json src/de.rs, remaining_depth starts at 128 and fails on reaching 0).
inline constexpr std::size_t kSerdeMaxDepth = 127;

/// @brief What walks over the parts of a parsed document found.
struct SerdeLimits {
  /// Deepest nesting of `[` and `{`, counting the top-level object as 1 and
  /// empty containers too (simdjson's own depth skips empty ones).
  std::size_t depth = 0;
  /// A float whose magnitude is near DBL_MAX, where serde_json and a correctly
  /// rounded reader can disagree: the literals must be read as serde_json does.
  bool edge_float = false;
};

/// @brief Walks `value` and everything under it into `limits`; `level` is the nesting
/// `value` has if it is a container (the top-level object is 1). Only the values the
/// reference ignores need this: every other place holds a fixed shape that nests 3 deep
/// at most and numbers that must be plain integers.
void measure_serde_limits(simdjson::dom::element value, std::size_t level, SerdeLimits& limits);

}  // namespace safetensors
