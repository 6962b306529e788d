// One JSON number literal read exactly as serde_json 1.0.89 reads it without its
// `float_roundtrip` feature (the build the reference crate uses): the kind it
// becomes and whether serde_json refuses it as out of range.
//
// The rules, from serde_json's src/de.rs (parse_integer, parse_number,
// parse_decimal, parse_exponent, parse_long_integer, parse_decimal_overflow,
// parse_exponent_overflow, f64_from_parts):
// - digits accumulate into a u64 significand; once the next digit would overflow
//   it, the remaining integer digits only raise the decimal exponent and the
//   remaining fraction digits are dropped (truncation, not rounding);
// - an integer with no fraction or exponent stays a u64 (or an i64 when negative
//   and in range); `-0` and negatives below i64 become floats;
// - a float is `significand as f64` multiplied (or divided) once by a correctly
//   rounded power of ten from 1e0..1e308; exponents past 308 divide by 1e308 in
//   steps when negative and are refused when positive (unless the value is 0);
// - a product that is infinite is refused ("number out of range"); nothing that
//   rounds to zero is ever refused;
// - an exponent past i32 gives 0 when negative or when the significand is 0, and
//   is refused otherwise.
// Because the steps round separately, the verdict differs from a correctly rounded
// reader (strtod) at the edge of f64: 1.7976931348623158e308 is refused and
// 179769313486231589e291 accepted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace safetensors {

/// @brief What serde_json makes of one number literal.
enum class SerdeNumberKind : std::uint8_t {
  Unsigned,    ///< ParserNumber::U64
  Signed,      ///< ParserNumber::I64 (negative)
  Float,       ///< ParserNumber::F64, finite
  OutOfRange,  ///< refused: serde_json's arithmetic gives infinity
  Malformed,   ///< refused: not a JSON number (a digit is missing, a leading zero)
};

/// @brief A literal's reading: its kind and how many bytes serde_json consumed.
struct SerdeNumber {
  SerdeNumberKind kind = SerdeNumberKind::Malformed;
  std::size_t length = 0;  ///< bytes of `text` that belong to the literal
  double value = 0;        ///< the f64 serde_json computes (Float only)
};

/// @brief Below this magnitude a float serde_json finds finite is finite to a
/// correctly rounded reader too, and the reverse: their verdicts can differ only
/// above it (serde_json's few roundings move a value by a few units in the last place).
inline constexpr double kSerdeEdgeMagnitude = 1e307;

/// @brief Reads the number literal at the start of `text` (a '-' or a digit) as
/// serde_json does.
SerdeNumber read_serde_number(std::string_view text);

}  // namespace safetensors
