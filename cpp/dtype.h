// Element types of the safetensors format and their sizes in bits.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace safetensors {

/// @brief The dtypes the reference loader accepts, in its declaration order.
enum class Dtype : std::uint8_t {
  BOOL,         ///< 8-bit boolean
  F4,           ///< 4-bit float E2M1, two per byte
  F6_E2M3,      ///< 6-bit float
  F6_E3M2,      ///< 6-bit float
  U8,           ///< unsigned 8-bit integer
  I8,           ///< signed 8-bit integer
  F8_E5M2,      ///< 8-bit float, 5 exponent bits
  F8_E4M3,      ///< 8-bit float, 4 exponent bits, no infinities
  F8_E8M0,      ///< 8-bit power-of-two scale
  F8_E4M3FNUZ,  ///< 8-bit float, single NaN, no negative zero
  F8_E5M2FNUZ,  ///< 8-bit float, single NaN, no negative zero
  I16,          ///< signed 16-bit integer
  U16,          ///< unsigned 16-bit integer
  F16,          ///< IEEE half precision
  BF16,         ///< bfloat16
  I32,          ///< signed 32-bit integer
  U32,          ///< unsigned 32-bit integer
  F32,          ///< IEEE single precision
  C64,          ///< complex of two F32
  F64,          ///< IEEE double precision
  I64,          ///< signed 64-bit integer
  U64,          ///< unsigned 64-bit integer
};

/// @brief Number of dtypes.
inline constexpr int kDtypeCount = 22;

/// @brief The exact, case-sensitive name used in headers.
std::string_view dtype_name(Dtype d);

/// @brief Size of one element in bits (4 for F4, 6 for F6 kinds).
std::uint32_t dtype_bits(Dtype d);

/// @brief Parses a header dtype name; nullopt for anything the reference rejects.
std::optional<Dtype> parse_dtype(std::string_view name);

}  // namespace safetensors
