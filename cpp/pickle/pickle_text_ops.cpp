// Protocol 0's text-line operands: INT, LONG, FLOAT, STRING, UNICODE and the memo indices of
// GET and PUT (formats: Python's Lib/pickletools.py).
#include <charconv>
#include <cstdlib>
#include <string>

#include "pickle/pickle_machine_state.h"

namespace safetensors::pickle::detail {

std::optional<std::uint64_t> Machine::take_index_line() {
  auto line = take_line();
  if (!line) return std::nullopt;
  std::uint64_t index = 0;
  auto [end, ec] = std::from_chars(line->data(), line->data() + line->size(), index);
  if (line->empty() || ec != std::errc() || end != line->data() + line->size()) {
    fail(PickleIssue::BadText);
    return std::nullopt;
  }
  return index;
}

bool Machine::push_int_line(bool is_long) {
  auto line = take_line();
  if (!line) return false;
  std::string_view s = *line;
  if (is_long && !s.empty() && s.back() == 'L') s.remove_suffix(1);
  if (!is_long && (s == "00" || s == "01")) {
    auto id = make(Kind::Bool);
    if (!id) return false;
    result_.values[*id].integer = s == "01";
    return push(*id);
  }
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || end != s.data() + s.size()) return fail(PickleIssue::BadText);
  auto id = make(Kind::Int);
  if (!id) return false;
  if (ec != std::errc()) {  // past int64: kept as its decimal text
    result_.values[*id].kind = Kind::BigInt;
    result_.values[*id].text.assign(s);
  } else {
    result_.values[*id].integer = v;
  }
  return push(*id);
}

bool Machine::push_float_line() {
  auto line = take_line();
  if (!line) return false;
  std::string text(*line);
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) return fail(PickleIssue::BadText);
  auto id = make(Kind::Float);
  if (!id) return false;
  result_.values[*id].real = v;
  return push(*id);
}

bool Machine::push_string_line(Kind kind) {
  auto line = take_line();
  if (!line) return false;
  std::string_view s = *line;
  if (kind == Kind::Bytes) {  // STRING: a quoted repr; the quotes go, escapes stay as written
    if (s.size() < 2 || s.front() != s.back() || (s.front() != '\'' && s.front() != '"'))
      return fail(PickleIssue::BadText);
    s = s.substr(1, s.size() - 2);
    kind = Kind::Str;
  }
  if (!charge(s.size())) return false;
  auto id = make(kind);
  if (!id) return false;
  result_.values[*id].text.assign(s);
  return push(*id);
}

}  // namespace safetensors::pickle::detail
