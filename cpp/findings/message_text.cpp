// Formatting helpers for finding and error messages.
#include "findings/message_text.h"

namespace safetensors {
namespace {

constexpr std::size_t kMaxQuotedBytes = 80;

// Length of the UTF-8 sequence starting with `lead` (input is valid UTF-8).
std::size_t sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  return 2;
}

}  // namespace

std::string quote_name(std::string_view name) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "'";
  std::size_t i = 0;
  while (i < name.size()) {
    if (i >= kMaxQuotedBytes) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(name[i]);
    const std::size_t len = sequence_length(c);
    if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out.append(name.substr(i, len));
    }
    i += len;
  }
  out += "'";
  return out;
}

std::string group_digits(std::uint64_t value) {
  std::string digits = std::to_string(value);
  std::string out;
  const std::size_t lead = digits.size() % 3;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (i % 3) == lead) out += ',';
    out += digits[i];
  }
  return out;
}

std::string count_bytes(std::uint64_t value) { return group_digits(value) + (value == 1 ? " byte" : " bytes"); }

std::string tensors_verb(std::uint64_t n, std::string_view one, std::string_view many) {
  return group_digits(n) + (n == 1 ? " tensor " : " tensors ") + std::string(n == 1 ? one : many);
}

std::string format_shape(std::span<const std::uint64_t> shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i != 0) out += ", ";
    out += std::to_string(shape[i]);
  }
  return out + "]";
}

}  // namespace safetensors
