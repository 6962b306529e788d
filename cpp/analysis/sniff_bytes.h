// What the sniffers of foreign_format.cpp and text_formats.cpp read the first bytes of a file
// with: views as text, integers at an offset (callers check the bounds), and quoting of names
// found in the bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "analysis/foreign_format.h"

namespace safetensors::sniff {

using Bytes = std::span<const std::uint8_t>;

/// @brief The bytes as text.
std::string_view text_of(Bytes b);

/// @brief Whether the bytes start with `prefix`.
bool starts_with(Bytes b, std::string_view prefix);

/// @brief The unsigned integer of `bytes` bytes (at most 8) at `at`, little-endian.
std::uint64_t little_endian(Bytes b, std::size_t at, int bytes);

/// @brief The 32-bit unsigned integer at `at`, big-endian.
std::uint32_t big_endian32(Bytes b, std::size_t at);

/// @brief A name or title from the file, quoted (quote_name) up to its first byte that is not
/// UTF-8: messages cross to JavaScript as UTF-8 text, and these bytes are anyone's.
std::string quote_text(std::string_view raw);

/// @brief "this is " and the format's label.
std::string what(ForeignFormat f);

}  // namespace safetensors::sniff
