// The packed table's writer (layout in table_writer.h).
#include "wasm/table_writer.h"

#include <cstring>

namespace safetensors {

// Every byte but continuation bytes starts a code point, and 4-byte sequences become
// surrogate pairs. Runs of ASCII go 8 bytes at a time.
std::uint64_t utf16_length(std::string_view s) {
  std::uint64_t units = 0;
  std::size_t i = 0;
  while (i < s.size()) {
    if (i + 8 <= s.size()) {
      std::uint64_t word;
      std::memcpy(&word, s.data() + i, 8);
      if ((word & 0x8080808080808080ull) == 0) {
        units += 8;
        i += 8;
        continue;
      }
    }
    units += utf16_units_of_lead(static_cast<unsigned char>(s[i++]));
  }
  return units;
}

void TableWriter::string(std::string_view s) {
  number(static_cast<double>(utf16_length_));
  text_.append(s);
  utf16_length_ += utf16_length(s);
  number(static_cast<double>(utf16_length_));
}

void TableWriter::finish(std::vector<std::uint8_t>& out) const {
  const auto count = static_cast<std::uint32_t>(numbers_.size());
  const auto text_bytes = static_cast<std::uint32_t>(text_.size());
  out.resize(8 + numbers_.size() * 8 + text_.size());
  std::memcpy(out.data(), &count, 4);
  std::memcpy(out.data() + 4, &text_bytes, 4);
  if (!numbers_.empty()) std::memcpy(out.data() + 8, numbers_.data(), numbers_.size() * 8);
  if (!text_.empty()) std::memcpy(out.data() + 8 + numbers_.size() * 8, text_.data(), text_.size());
}

}  // namespace safetensors
