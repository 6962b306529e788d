// Metadata lookups and value parsing for the card (see metadata_view.h).
#include "card/metadata_view.h"

#include <cmath>
#include <cstdlib>
#include <string>

namespace safetensors {

std::optional<std::string_view> MetadataView::text(std::string_view key) const {
  const auto value = get(key);
  if (!value) return std::nullopt;
  const std::string_view t = trim(*value);
  if (t.empty()) return std::nullopt;
  return t;
}

std::optional<double> parse_number(std::string_view s) {
  // JSON number syntax: -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)? ; nothing else (no "inf", no hex).
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i - start;
  };
  if (i < s.size() && s[i] == '-') ++i;
  const std::size_t int_start = i;
  const std::size_t int_digits = digits();
  if (int_digits == 0 || (int_digits > 1 && s[int_start] == '0')) return std::nullopt;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits() == 0) return std::nullopt;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return std::nullopt;
  }
  if (i != s.size() || s.size() > 64) return std::nullopt;
  const std::string copy(s);  // strtod needs a terminated string
  const double v = std::strtod(copy.c_str(), nullptr);
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace safetensors
