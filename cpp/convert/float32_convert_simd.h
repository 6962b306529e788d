// WASM SIMD kernels (compiled only with -msimd128). Each converts a whole number of
// vectors from the start of the input and returns how many elements it did; the
// caller finishes the tail with the scalar kernel.
#pragma once

#include <cstddef>
#include <cstdint>

#include "format/dtype.h"

namespace safetensors::simd {

/// @brief Converts the leading elements of `dtype` it has a kernel for; 0 for other dtypes.
std::size_t convert_to_f32_prefix(Dtype dtype, const std::uint8_t* in, float* out, std::size_t count);

}  // namespace safetensors::simd
