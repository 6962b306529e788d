// UTF-8 validation of the header bytes (step 4 of the reference checks).
#pragma once

#include <cstdint>
#include <optional>
#include <span>

namespace safetensors {

/// @brief Offset of the first byte that makes `bytes` invalid UTF-8 (overlong forms,
/// surrogates, code points above U+10FFFF and cut sequences included), or nullopt.
std::optional<std::size_t> find_invalid_utf8(std::span<const std::uint8_t> bytes);

}  // namespace safetensors
