// The formatting helpers of every message meant for people (findings, reference
// errors, JSON reasons): names quoted and cut, numbers grouped, counts with their nouns.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace safetensors {

/// @brief A tensor or key name in single quotes, control characters escaped and
/// names longer than 80 characters cut with an ellipsis (names can be 1 MB).
std::string quote_name(std::string_view name);

/// @brief 1234567 -> "1,234,567".
std::string group_digits(std::uint64_t value);

/// @brief "1 byte" / "12 bytes", with digit grouping.
std::string count_bytes(std::uint64_t value);

/// @brief A tensor count with its verb: (1, "is", "are") -> "1 tensor is", (3, ...) -> "3 tensors are".
std::string tensors_verb(std::uint64_t n, std::string_view one, std::string_view many);

/// @brief [2, 3] -> "[2, 3]".
std::string format_shape(std::span<const std::uint64_t> shape);

}  // namespace safetensors
