// A lexer that finds number literals outside strings and rewrites the ones
// serde_json and simdjson read differently (see serde_numbers.h).
#include "format/serde_numbers.h"

#include <cmath>
#include <cstdlib>

#include "format/serde_number.h"

namespace safetensors {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Longest literal quoted in a message.
constexpr std::size_t kQuotedLiteral = 48;
// Does a correctly rounded reader (simdjson, strtod) find this literal infinite?
bool rounds_to_infinity(std::string_view literal) {
  const std::string text(literal);
  return std::isinf(std::strtod(text.c_str(), nullptr));
}

// serde_json reads `literal` as a finite float: the replacement simdjson needs to
// agree, or nullopt when it agrees already.
std::optional<std::string_view> float_replacement(std::string_view literal, double value) {
  const bool plain_integer = literal.find_first_of(".eE") == std::string_view::npos;
  const bool edge = std::fabs(value) >= kSerdeEdgeMagnitude && rounds_to_infinity(literal);
  if (!plain_integer && !edge) return std::nullopt;
  return literal.front() == '-' ? "-0.0" : "0.0";
}

}  // namespace

bool may_contain_negative_zero(std::string_view json) { return json.find("-0") != std::string_view::npos; }

NumberAudit audit_serde_numbers(std::string_view json) {
  NumberAudit audit;
  std::string out;
  std::size_t copied = 0;  // json[0, copied) is already in `out`
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
    const SerdeNumber number = read_serde_number(json.substr(i));
    const std::size_t length = number.length > 0 ? number.length : 1;
    const std::string_view literal = json.substr(i, length);
    if (number.kind == SerdeNumberKind::OutOfRange) {
      audit.out_of_range = std::string(literal.substr(0, kQuotedLiteral));
      if (literal.size() > kQuotedLiteral) audit.out_of_range += "…";
      audit.rewritten.reset();
      return audit;
    }
    if (number.kind == SerdeNumberKind::Float) {
      if (auto replacement = float_replacement(literal, number.value)) {
        out.append(json.substr(copied, i - copied));
        out.append(*replacement);
        copied = i + length;
        audit.rewritten.emplace();
      }
    }
    i += length;
  }
  if (audit.rewritten) {
    out.append(json.substr(copied));
    audit.rewritten = std::move(out);
  }
  return audit;
}

}  // namespace safetensors
