// Byte reading for the foreign-format sniffers (see sniff_bytes.h).
#include "analysis/sniff_bytes.h"

#include "findings/message_text.h"
#include "format/utf8.h"

namespace safetensors::sniff {

std::string_view text_of(Bytes b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

bool starts_with(Bytes b, std::string_view prefix) { return text_of(b).starts_with(prefix); }

std::uint64_t little_endian(Bytes b, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | b[at + static_cast<std::size_t>(i)];
  return v;
}

std::uint32_t big_endian32(Bytes b, std::size_t at) {
  return static_cast<std::uint32_t>(b[at]) << 24 | static_cast<std::uint32_t>(b[at + 1]) << 16 |
         static_cast<std::uint32_t>(b[at + 2]) << 8 | b[at + 3];
}

std::string quote_text(std::string_view raw) {
  const auto bad = find_invalid_utf8({reinterpret_cast<const std::uint8_t*>(raw.data()), raw.size()});
  return quote_name(raw.substr(0, bad.value_or(raw.size())));
}

std::string what(ForeignFormat f) { return "this is " + std::string(foreign_format_info(f).label); }

}  // namespace safetensors::sniff
