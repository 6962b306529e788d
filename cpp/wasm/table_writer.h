// The packed form in which results cross to JavaScript (read by web/core/table_reader.js):
// one flat buffer instead of thousands of Embind objects.
//
// Layout (little-endian): u32 number count, u32 text byte count, that many f64 numbers,
// then the UTF-8 text. The numbers are read in sequence; a string is two numbers, its
// start and end in UTF-16 code units of the decoded text, so JS decodes all text with
// one TextDecoder call and slices it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace safetensors {

/// @brief UTF-16 code units of the code point that UTF-8 lead byte `c` starts (0 for a
/// continuation byte): 4-byte sequences become surrogate pairs.
inline unsigned utf16_units_of_lead(unsigned char c) { return (c & 0xC0) == 0x80 ? 0 : (c >= 0xF0 ? 2 : 1); }

/// @brief UTF-16 code units of valid UTF-8 text.
std::uint64_t utf16_length(std::string_view s);

/// @brief Builds one packed table.
class TableWriter {
 public:
  /// @brief Appends a number (exact for integers up to 2^53).
  void number(double v) { numbers_.push_back(v); }

  /// @brief Appends a string as its [start, end) in the text's UTF-16 units.
  void string(std::string_view s);

  /// @brief Writes the table into `out` (resized; its capacity is reused).
  void finish(std::vector<std::uint8_t>& out) const;

 private:
  std::vector<double> numbers_;
  std::string text_;
  std::uint64_t utf16_length_ = 0;
};

}  // namespace safetensors
