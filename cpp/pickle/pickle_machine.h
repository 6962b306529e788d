// The pickle machine: runs a pickle of protocol 0-5 over bytes the caller holds and builds
// inert values (pickle_value.h). It never imports, looks up or calls anything. Malformed
// input and every hard limit (PickleLimits) end the run with a typed finding, never a crash.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "pickle/pickle_findings.h"
#include "pickle/pickle_value.h"

namespace safetensors::pickle {

/// @brief What one run produced.
struct PickleResult {
  std::vector<Value> values;            ///< the arena
  ValueId root = kNoValue;              ///< the value STOP returned (kNoValue when it never came)
  std::vector<GlobalRef> globals;       ///< every global named, in stream order
  std::vector<PickleFinding> findings;  ///< in stream order; a fatal one is last
  std::uint64_t end = 0;                ///< bytes consumed: just past STOP, or where the run stopped
  bool complete = false;                ///< STOP was reached
  int protocol = 0;                     ///< from PROTO (0 when absent)

  /// @brief The value `id` (which must be valid).
  const Value& at(ValueId id) const { return values[id]; }
  /// @brief Whether a finding of `issue` was made.
  bool has(PickleIssue issue) const;
};

/// @brief Runs the pickle that starts at bytes[0] up to its STOP (bytes after it are left alone:
/// `end` says where it ended).
PickleResult run_pickle(std::span<const std::uint8_t> bytes, const PickleLimits& limits = {});

}  // namespace safetensors::pickle
