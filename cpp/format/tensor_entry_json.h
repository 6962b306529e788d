// One tensor's entry of the header JSON ({"dtype", "shape", "data_offsets"}, or the array
// form [dtype, shape, data_offsets]), read as serde reads the reference's TensorInfo
// (docs/reference-rules.md, step 5). header_json.cpp reads the document around it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "format/header.h"
#include "format/serde_limits.h"
#include "simdjson.h"

namespace safetensors {

/// @brief A JSON value's type for messages: "an array", "an object", "a number", ...
const char* json_type_name(simdjson::dom::element_type t);

/// @brief Reads tensor `name`'s entry into `entry` and `quirks` (the values of unknown fields
/// measured into `ignored`); the reason, for a person, when it is not an entry.
std::optional<std::string> read_tensor_entry(std::string_view name, simdjson::dom::element value, TensorEntry& entry,
                                             EntryQuirks& quirks, SerdeLimits& ignored);

}  // namespace safetensors
