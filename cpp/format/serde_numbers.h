// Number literals that simdjson and serde_json (the reference's JSON reader) read
// differently, and the rewrite that makes simdjson decide as serde_json does.
//
// serde_json reads an integer literal beyond the 64-bit range as an f64 (accepted
// in ignored fields, rejected where an integer is required), where simdjson fails
// with BIGINT_ERROR or NUMBER_ERROR. serde_json reads `-0` as the float -0.0
// (rejected as a shape or offset), where simdjson gives the integer 0. Rewriting
// such literals into floats with the same meaning to serde lets simdjson decide
// exactly as the reference does.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace safetensors {

/// @brief A copy of `json` with serde-only number literals rewritten, or nullopt if
/// there were none. Integer literals beyond u64 (or below i64) become `0.0` when
/// finite as f64 and `1e400` (an error to both parsers) otherwise; `-0` becomes `-0.0`.
std::optional<std::string> rewrite_serde_numbers(std::string_view json);

/// @brief Cheap pre-check: can `json` hold a `-0` literal at all?
bool may_contain_negative_zero(std::string_view json);

}  // namespace safetensors
