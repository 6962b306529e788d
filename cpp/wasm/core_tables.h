// The core's fixed tables, packed once for JavaScript at load (web/core/tables.js): the
// dtype table, the reference error kinds, the severities and the finding codes. JS holds
// no copy of these facts of its own.
//
// Sequence: version; dtypes (count, then per dtype: name, bits, unit bytes, unit elements,
// storage name); reference error names (count, names, "" first for none); severity names
// (count, names); the severity index of reference errors; finding codes (count, then per
// code: name, severity index); the longest header the reference reads or writes; the
// formats a NotSafetensors finding names (count, then per format: name, label).
#pragma once

#include <cstdint>
#include <vector>

namespace safetensors {

/// @brief Written first; web/core/tables.js refuses a table of another version (a .wasm
/// from another build). Bumped whenever this sequence or the header table's changes.
inline constexpr std::uint32_t kCoreTablesVersion = 4;

/// @brief Packs the tables into `out`.
void encode_core_tables(std::vector<std::uint8_t>& out);

}  // namespace safetensors
