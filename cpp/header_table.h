// A Report packed for JavaScript: one flat buffer, decoded by web/header_table.js.
//
// Layout (little-endian): u32 number count, u32 text byte count, that many f64
// numbers, then the UTF-8 text. The numbers are read in sequence; a string is two
// numbers, its start and end in UTF-16 code units of the decoded text, so JS
// decodes all text with one TextDecoder call and slices it.
//
// Sequence: version; the dtype names (count, strings); reference error (string,
// "" if none); file size; header length; data start; header parsed (0/1);
// findings (count, then per finding: code, severity 0 error 1 warning 2 info,
// message, has tensor, [tensor]); metadata (-1 for none, else count, then key,
// value pairs); tensors (count, then per tensor: name, dtype index, ndim, dims,
// begin, end, exact flag, [ndim dims as decimal strings when a dim is above 2^53-1]).
#pragma once

#include <cstdint>
#include <vector>

#include "report.h"

namespace safetensors {

/// @brief Version written first; bumped whenever the sequence changes.
inline constexpr std::uint32_t kHeaderTableVersion = 1;

/// @brief Packs `report` into `out` (cleared first, capacity reused).
void encode_header_table(const Report& report, std::vector<std::uint8_t>& out);

}  // namespace safetensors
