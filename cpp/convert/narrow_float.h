// Converting float tensors to F16 or BF16 on write ("Save as F16"): F32 and F64 round to
// nearest, ties to even, once; F16 and BF16 go through their exact float32 value, so they
// too round once. NaN stays NaN (sign and top payload bits kept, the quiet bit set),
// values beyond the largest finite one become ±infinity, tiny ones subnormals or ±0.
#pragma once

#include <cstddef>
#include <cstdint>

#include "format/dtype.h"

namespace safetensors {

/// @brief True when `from` can be written as `to` by convert_floats: `to` is F16 or BF16 and
/// `from` is F32, F64, F16 or BF16.
bool can_narrow(Dtype from, Dtype to);

/// @brief Converts `count` elements of `from` at `in` to `to` at `out` (both may sit at any
/// byte address). WASM SIMD kernels for F32 where compiled in. False (writing nothing) when
/// !can_narrow(from, to).
bool convert_floats(Dtype from, Dtype to, const std::uint8_t* in, std::uint8_t* out, std::size_t count);

/// @brief The same with the scalar kernels only: the reference for the SIMD ones.
bool convert_floats_scalar(Dtype from, Dtype to, const std::uint8_t* in, std::uint8_t* out, std::size_t count);

/// @brief F16 bits of the float32 with bits `f32`, rounded to nearest even.
std::uint16_t f32_to_f16_bits(std::uint32_t f32);
/// @brief BF16 bits of the float32 with bits `f32`, rounded to nearest even.
std::uint16_t f32_to_bf16_bits(std::uint32_t f32);
/// @brief F16 bits of the float64 with bits `f64`, rounded to nearest even (once).
std::uint16_t f64_to_f16_bits(std::uint64_t f64);
/// @brief BF16 bits of the float64 with bits `f64`, rounded to nearest even (once).
std::uint16_t f64_to_bf16_bits(std::uint64_t f64);

}  // namespace safetensors
