// JSON string literals for the card's writer (see json_writer.h).
#include "card/json_writer.h"

#include <charconv>
#include <cmath>

#include "simdjson.h"

namespace safetensors {

void write_json_string(std::string_view s, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  std::size_t run = 0;  // start of the run of characters that need no escape
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.substr(run, i - run));
    run = i + 1;
    out += '\\';
    switch (c) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '\n': out += 'n'; break;
      case '\r': out += 'r'; break;
      case '\t': out += 't'; break;
      default:
        out += "u00";
        out += kHex[c >> 4];
        out += kHex[c & 15];
    }
  }
  out.append(s.substr(run));
  out += '"';
}

void Json::number(double v) {
  comma();
  if (!std::isfinite(v)) {
    out_ += "null";
    return;
  }
  char buf[32];
  // Integers (counts, sizes) exactly; other values as simdjson's to_chars writes them (its
  // src/to_chars.cpp, Grisu2: digits that read back as the same double, in JSON's syntax).
  // printf's %.17g gave the same doubles, with printf's and long double's code in the module.
  const char* end = v == std::floor(v) && std::fabs(v) < 9e15
                        ? std::to_chars(buf, buf + sizeof buf, static_cast<long long>(v)).ptr
                        : simdjson::internal::to_chars(buf, buf + sizeof buf, v);
  out_.append(buf, static_cast<std::size_t>(end - buf));
}

}  // namespace safetensors
