// The number literals of a header that simdjson and serde_json (the reference's
// JSON reader) read differently, and the rewrite that makes simdjson decide as
// serde_json does.
//
// simdjson reads every literal correctly rounded; serde_json follows its own
// arithmetic (serde_number.h). They differ on:
// - integers beyond u64 (or below i64): serde_json reads an f64 (refused only
//   where an integer is required), simdjson fails (BIGINT_ERROR);
// - `-0`: serde_json reads the float -0.0 (refused as a shape or offset),
//   simdjson the integer 0;
// - literals at the edge of f64: serde_json may refuse what rounds to DBL_MAX
//   (1.7976931348623158e308) and accept what rounds to infinity
//   (179769313486231589e291).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace safetensors {

/// @brief What the number literals of a JSON text need.
struct NumberAudit {
  /// The first literal serde_json refuses as out of range (the JSON is then
  /// refused, wherever the literal stands), or empty.
  std::string out_of_range;
  /// A copy of the text where every literal that simdjson would read with another
  /// kind or verdict is replaced by one it reads as serde_json does (`0.0` or
  /// `-0.0`: the value of an ignored number never matters, only that it is a
  /// float); nullopt when no literal needed it.
  std::optional<std::string> rewritten;
};

/// @brief Reads every number literal outside strings as serde_json does.
NumberAudit audit_serde_numbers(std::string_view json);

/// @brief Cheap pre-check: can `json` hold a `-0` literal at all?
bool may_contain_negative_zero(std::string_view json);

}  // namespace safetensors
