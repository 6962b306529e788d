// Converting tensor elements to float32, chunk by chunk, and normalising BOOL bytes.
// Inputs may sit at any byte address (safetensors does not promise alignment).
#pragma once

#include <cstddef>
#include <cstdint>

#include "format/dtype.h"

namespace safetensors {

/// @brief Converts `count` elements of `dtype` at `in` to float32 at `out` (C64: 2 floats per
/// element; F4: `count` must be even, the first element in each byte's low nibble). Uses the
/// WASM SIMD kernels where they are compiled in. Returns false (writing nothing) for dtypes
/// without a float32 form (has_f32_form in format/dtype.h).
bool convert_to_f32(Dtype dtype, const std::uint8_t* in, float* out, std::size_t count);

/// @brief The same with the scalar kernels only: the reference for the SIMD ones.
bool convert_to_f32_scalar(Dtype dtype, const std::uint8_t* in, float* out, std::size_t count);

/// @brief BOOL bytes to 0 or 1 (any non-zero byte is true).
void normalize_bool(const std::uint8_t* in, std::uint8_t* out, std::size_t count);

/// @brief True when this build converts with WASM SIMD kernels.
bool simd_kernels_compiled();

}  // namespace safetensors
