// What a safetensors header says: tensor entries and the optional metadata map.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "format/dtype.h"

namespace safetensors {

/// @brief One tensor entry of the header. Offsets are relative to the data section.
struct TensorEntry {
  std::string name;                  ///< the JSON key, unescaped (any string, "" included)
  Dtype dtype = Dtype::U8;           ///< element type
  std::vector<std::uint64_t> shape;  ///< dimensions; empty for a scalar
  std::uint64_t begin = 0;           ///< data_offsets[0]
  std::uint64_t end = 0;             ///< data_offsets[1]
};

/// @brief __metadata__ as (key, value) pairs.
using Metadata = std::vector<std::pair<std::string, std::string>>;

/// @brief How an entry was written, for findings: the reference accepts all of these.
struct EntryQuirks {
  std::uint32_t unknown_fields = 0;  ///< fields other than dtype, shape, data_offsets
  bool written_as_array = false;     ///< ["U8",[1],[0,1]] instead of an object
  bool dtype_as_map = false;         ///< {"U8":null} instead of "U8"
};

/// @brief The header JSON, as written: JSON order, duplicates kept.
struct ParsedHeader {
  std::vector<TensorEntry> tensors;  ///< every tensor key, in JSON order
  std::vector<EntryQuirks> quirks;   ///< parallel to `tensors`
  bool has_metadata = false;         ///< a non-null __metadata__ object was present
  Metadata metadata;                 ///< in JSON order, duplicates kept
};

}  // namespace safetensors
