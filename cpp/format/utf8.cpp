// Fast check with simdjson's validator; a scalar walk finds the offset for the message.
#include "format/utf8.h"

#include "simdjson.h"

namespace safetensors {
namespace {

bool in(std::uint8_t c, std::uint8_t lo, std::uint8_t hi) { return c >= lo && c <= hi; }

// Length of the valid sequence at bytes[i], or 0 (Unicode table 3-7).
std::size_t valid_sequence_at(std::span<const std::uint8_t> b, std::size_t i) {
  const std::size_t left = b.size() - i;
  const std::uint8_t c = b[i];
  if (c < 0x80) return 1;
  if (in(c, 0xC2, 0xDF)) return left >= 2 && in(b[i + 1], 0x80, 0xBF) ? 2 : 0;
  if (in(c, 0xE0, 0xEF)) {
    const std::uint8_t lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    return left >= 3 && in(b[i + 1], lo, hi) && in(b[i + 2], 0x80, 0xBF) ? 3 : 0;
  }
  if (in(c, 0xF0, 0xF4)) {
    const std::uint8_t lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    return left >= 4 && in(b[i + 1], lo, hi) && in(b[i + 2], 0x80, 0xBF) && in(b[i + 3], 0x80, 0xBF) ? 4 : 0;
  }
  return 0;
}

}  // namespace

std::optional<std::size_t> find_invalid_utf8(std::span<const std::uint8_t> bytes) {
  if (simdjson::validate_utf8(reinterpret_cast<const char*>(bytes.data()), bytes.size())) {
    return std::nullopt;
  }
  for (std::size_t i = 0; i < bytes.size();) {
    const std::size_t len = valid_sequence_at(bytes, i);
    if (len == 0) return i;
    i += len;
  }
  return std::nullopt;  // unreachable while both validators agree
}

}  // namespace safetensors
