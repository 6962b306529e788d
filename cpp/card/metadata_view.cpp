// Metadata lookups, and numbers and times read from metadata values, for the card (see
// metadata_view.h).
#include "card/metadata_view.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <string>

#include "simdjson.h"

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
  // simdjson's exact decimal conversion (its src/from_chars.cpp: round to nearest, ties to even,
  // as strtod), already in the card module for JSON values: no strtod and its long double code.
  // It reads up to a character that cannot continue the number: a terminated copy.
  const std::string copy(s);
  const double v = simdjson::internal::from_chars(copy.c_str());
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

std::string iso_date(double unix_seconds) {
  using namespace std::chrono;
  const auto seconds = static_cast<long long>(std::floor(unix_seconds));
  const sys_days day{days{seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400}};
  const long long in_day = seconds - static_cast<long long>(day.time_since_epoch().count()) * 86400;
  const year_month_day ymd{day};
  const long long fields[] = {static_cast<int>(ymd.year()),
                              static_cast<unsigned>(ymd.month()),
                              static_cast<unsigned>(ymd.day()),
                              in_day / 3600,
                              in_day % 3600 / 60,
                              in_day % 60};
  // What printf's "%04d-%02u-%02uT%02lld:%02lld:%02lldZ" wrote, without printf in the module.
  std::string out;
  for (std::size_t i = 0; i < 6; ++i) {
    char buf[24];
    const char* end = std::to_chars(buf, buf + sizeof buf, fields[i]).ptr;
    out.append(static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, (i == 0 ? 4 : 2) - (end - buf))), '0');
    out.append(buf, static_cast<std::size_t>(end - buf)) += "--T::Z"[i];
  }
  return out;
}

}  // namespace safetensors
