// WASM SIMD kernels for narrow_float.h (compiled only with -msimd128): float32 to F16 or
// BF16, 8 elements per step from the start of the input; the caller finishes the tail.
#pragma once

#include <cstddef>
#include <cstdint>

#include "format/dtype.h"

namespace safetensors::simd {

/// @brief Converts the leading elements (a multiple of 8) of F32 `in` to `to` (F16 or BF16); returns how many.
std::size_t narrow_f32_prefix(Dtype to, const std::uint8_t* in, std::uint8_t* out, std::size_t count);

}  // namespace safetensors::simd
