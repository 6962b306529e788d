// Builds safetensors byte strings for the native tests and analyses them.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/analyze_header.h"

namespace safetensors {
/// @brief Lets GoogleTest print verdicts by name.
inline void PrintTo(ReferenceError e, std::ostream* os) {
  *os << (e == ReferenceError::None ? "None" : reference_error_name(e));
}
/// @brief Lets GoogleTest print finding codes by name.
inline void PrintTo(FindingCode c, std::ostream* os) { *os << finding_code_info(c).name; }
}  // namespace safetensors

namespace safetensors::testing {

/// @brief The 8-byte little-endian prefix for `n`.
inline std::string length_prefix(std::uint64_t n) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((n >> (8 * i)) & 0xFF);
  return out;
}

/// @brief prefix(header.size()) + header + data.
inline std::string make_file(std::string_view header, std::string_view data = "") {
  return length_prefix(header.size()) + std::string(header) + std::string(data);
}

/// @brief A file whose data section is `data_size` zero bytes.
inline std::string make_file(std::string_view header, std::size_t data_size) {
  return make_file(header, std::string(data_size, '\0'));
}

/// @brief Analyses a whole file held in memory.
inline Report analyze(std::string_view file) {
  return analyze_header({reinterpret_cast<const std::uint8_t*>(file.data()), file.size()}, file.size());
}

/// @brief The reference verdict for a whole file held in memory.
inline ReferenceError verdict(std::string_view file) { return analyze(file).error; }

/// @brief The verdict for a header followed by exactly the data it needs, when
/// `data_size` is given; used where only step 5 is of interest.
inline ReferenceError header_verdict(std::string_view header, std::size_t data_size = 0) {
  return verdict(make_file(header, data_size));
}

/// @brief The verdict for one U8 tensor "t" of shape [1] with one data byte, written with
/// `entry_json` as its value.
inline ReferenceError one_entry_verdict(std::string_view entry_json) {
  return header_verdict("{\"t\":" + std::string(entry_json) + "}", 1);
}

/// @brief One tensor entry as the reference writer emits it.
inline std::string entry(std::string_view name, std::string_view dtype, std::string_view shape, std::uint64_t begin,
                         std::uint64_t end) {
  return "\"" + std::string(name) + "\":{\"dtype\":\"" + std::string(dtype) + "\",\"shape\":" + std::string(shape) +
         ",\"data_offsets\":[" + std::to_string(begin) + "," + std::to_string(end) + "]}";
}

}  // namespace safetensors::testing
