// The packed table's reader (see table_reader.h).
#include "wasm/table_reader.h"

#include <cstring>

#include "wasm/table_writer.h"

namespace safetensors {

bool TableReader::open(std::span<const std::uint8_t> table) {
  if (table.size() < 8) return false;
  std::uint32_t count = 0, text_bytes = 0;
  std::memcpy(&count, table.data(), 4);
  std::memcpy(&text_bytes, table.data() + 4, 4);
  if ((table.size() - 8) / 8 < count || table.size() - 8 - std::size_t{count} * 8 != text_bytes) return false;
  numbers_ = table.data() + 8;
  count_ = count;
  at_ = 0;
  text_ = {reinterpret_cast<const char*>(numbers_ + std::size_t{count} * 8), text_bytes};
  units_seen_ = 0;
  byte_seen_ = 0;
  ascii_ = utf16_length(text_) == text_.size();
  return true;
}

bool TableReader::seek(std::uint64_t units, std::size_t& byte) {
  if (ascii_) {
    if (units > text_.size()) return false;
    byte = static_cast<std::size_t>(units);
    return true;
  }
  if (units < units_seen_) {  // strings are written in order, but any order reads correctly
    units_seen_ = 0;
    byte_seen_ = 0;
  }
  while (units_seen_ < units) {
    if (byte_seen_ == text_.size()) return false;
    units_seen_ += utf16_units_of_lead(static_cast<unsigned char>(text_[byte_seen_++]));
    while (byte_seen_ < text_.size() && utf16_units_of_lead(static_cast<unsigned char>(text_[byte_seen_])) == 0)
      ++byte_seen_;  // the code point's continuation bytes
  }
  if (units_seen_ != units) return false;  // inside a surrogate pair
  byte = byte_seen_;
  return true;
}

bool TableReader::string(std::string_view& out) {
  std::uint64_t start = 0, end = 0;
  std::size_t begin_byte = 0, end_byte = 0;
  constexpr double kMaxUnits = 9007199254740991.0;
  if (!count(kMaxUnits, start) || !count(kMaxUnits, end) || end < start) return false;
  if (!seek(start, begin_byte) || !seek(end, end_byte)) return false;
  out = text_.substr(begin_byte, end_byte - begin_byte);
  return true;
}

}  // namespace safetensors
