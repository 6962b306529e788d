// Step 5 of the reference checks: the header as JSON of the expected shape,
// decided as serde_json decides it (docs/reference-rules.md, step 5).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "format/header.h"

namespace safetensors {

/// @brief Bytes of readable padding simdjson needs after its input.
std::size_t json_padding();

/// @brief How reading the header JSON ended.
enum class JsonOutcome : std::uint8_t {
  Parsed,       ///< JSON of the expected shape: `header` is filled
  Rejected,     ///< InvalidHeaderDeserialization: `reason` says why
  OutOfMemory,  ///< the parser could not get its buffers: no verdict at all
};

/// @brief The result of reading the header JSON.
struct HeaderJsonResult {
  JsonOutcome outcome = JsonOutcome::Rejected;  ///< how it ended
  std::string reason;                           ///< why it was rejected, for a person
  ParsedHeader header;                          ///< filled when ok
  std::size_t leading_space = 0;                ///< JSON whitespace bytes before the '{'
  std::size_t trailing_space = 0;               ///< JSON whitespace bytes after the JSON value (padding)
};

/// @brief Parses the header (UTF-8 already checked).
/// @param padded true when json_padding() bytes after the span can be read.
HeaderJsonResult parse_header_json(std::span<const std::uint8_t> header, bool padded);

}  // namespace safetensors
