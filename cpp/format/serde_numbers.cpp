// A lexer that finds number literals outside strings and rewrites the ones
// serde_json and simdjson read differently (see serde_numbers.h).
#include "format/serde_numbers.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace safetensors {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Compares two digit strings without leading zeros as numbers.
bool digits_greater(std::string_view digits, std::string_view limit) {
  if (digits.size() != limit.size()) return digits.size() > limit.size();
  return digits > limit;
}

// What serde_json makes of a well-formed integer literal: nullopt when simdjson
// agrees, otherwise the literal that makes simdjson agree.
std::optional<std::string_view> replacement_for(bool negative, std::string_view digits) {
  if (negative && digits == "0") return "-0.0";
  const bool out_of_range =
      negative ? digits_greater(digits, "9223372036854775808") : digits_greater(digits, "18446744073709551615");
  if (!out_of_range) return std::nullopt;
  // serde_json computes the f64 value; it rejects the literal if that is infinite.
  const std::string text(digits);
  const double value = std::strtod(text.c_str(), nullptr);
  if (!std::isfinite(value)) return "1e400";
  return negative ? "-0.0" : "0.0";
}

}  // namespace

bool may_contain_negative_zero(std::string_view json) { return json.find("-0") != std::string_view::npos; }

std::optional<std::string> rewrite_serde_numbers(std::string_view json) {
  std::string out;
  std::size_t copied = 0;  // json[0, copied) is already in `out`
  bool changed = false;
  std::size_t i = 0;
  const std::size_t n = json.size();
  while (i < n) {
    const char c = json[i];
    if (c == '"') {  // skip a string, honouring backslash escapes
      ++i;
      while (i < n && json[i] != '"') i += (json[i] == '\\') ? 2 : 1;
      ++i;
      continue;
    }
    if (c != '-' && !is_digit(c)) {
      ++i;
      continue;
    }
    const std::size_t start = i;
    const bool negative = (c == '-');
    if (negative) ++i;
    const std::size_t digits_start = i;
    while (i < n && is_digit(json[i])) ++i;
    const std::string_view digits = json.substr(digits_start, i - digits_start);
    const bool continues = i < n && (json[i] == '.' || json[i] == 'e' || json[i] == 'E');
    if (continues) {  // a float literal: both parsers agree on these
      while (i < n && (is_digit(json[i]) || std::strchr(".eE+-", json[i]) != nullptr)) ++i;
      continue;
    }
    const bool well_formed = !digits.empty() && (digits.size() == 1 || digits[0] != '0');
    if (!well_formed) continue;
    if (auto replacement = replacement_for(negative, digits)) {
      out.append(json.substr(copied, start - copied));
      out.append(*replacement);
      copied = i;
      changed = true;
    }
  }
  if (!changed) return std::nullopt;
  out.append(json.substr(copied));
  return out;
}

}  // namespace safetensors
