// The messages that go with a reference error: what is wrong with the file, in the
// words a person needs to act on it. One function per step of the reference checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "format/header.h"
#include "format/tensor_layout.h"

namespace safetensors {

/// @brief Steps 1-3: HeaderTooSmall, HeaderTooLarge or InvalidHeaderLength for a claimed length `n`.
/// @param header_starts the bytes after the prefix begin as a header does ('{' after spaces): an
///        InvalidHeaderLength is then a file cut short, else it may be another format.
std::string prefix_message(ReferenceError error, std::uint64_t n, std::uint64_t file_size, bool header_starts);

/// @brief Step 4: the first byte that is not UTF-8, at `offset` in the header.
std::string invalid_utf8_message(std::size_t offset);

/// @brief Step 5: the JSON reader's reason.
std::string json_message(std::string_view reason);

/// @brief Step 6: the tensor `t` fails the layout check described by `r`.
std::string layout_message(const LayoutResult& r, const TensorEntry& t);

/// @brief Step 7: the tensors end at `expected` bytes (nullopt: past 2^64) but the file has `file_size`;
/// a shorter file gets both counts ("the file has N bytes, the header needs M: ... cut short").
std::string size_message(std::optional<std::uint64_t> expected, std::uint64_t file_size);

}  // namespace safetensors
