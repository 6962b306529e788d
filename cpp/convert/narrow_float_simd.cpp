// WASM SIMD kernels: float32 to F16 and BF16, rounding to nearest even, 4 lanes at a time in
// 32-bit integer lanes, two vectors narrowed into one of 16-bit codes. The same results, bit
// for bit, as the scalar round_ieee (tests/wasm/simd_kernels_check.cpp compares them).
#include "convert/narrow_float_simd.h"

#if defined(__wasm_simd128__)

#include <wasm_simd128.h>

namespace safetensors::simd {
namespace {

v128_t splat(std::uint32_t v) { return wasm_i32x4_splat(static_cast<int>(v)); }

// All ones in lanes where a < b, as signed 32-bit numbers (every operand here is below 2^31).
v128_t less(v128_t a, std::uint32_t b) { return wasm_i32x4_lt(a, splat(b)); }

v128_t bf16_lanes(v128_t bits) {
  const v128_t abs = wasm_v128_and(bits, splat(0x7FFFFFFFu));
  const v128_t odd = wasm_v128_and(wasm_u32x4_shr(bits, 16), splat(1));
  const v128_t rounded = wasm_u32x4_shr(wasm_i32x4_add(bits, wasm_i32x4_add(splat(0x7FFF), odd)), 16);
  const v128_t nan = wasm_v128_or(wasm_u32x4_shr(bits, 16), splat(0x40));
  return wasm_v128_bitselect(rounded, nan, less(abs, 0x7F800001u));
}

v128_t f16_lanes(v128_t bits) {
  const v128_t abs = wasm_v128_and(bits, splat(0x7FFFFFFFu));
  const v128_t sign = wasm_v128_and(wasm_u32x4_shr(bits, 16), splat(0x8000));
  // Normal results: rebias, then add just under half a unit plus the last kept bit (ties to even).
  const v128_t odd = wasm_v128_and(wasm_u32x4_shr(abs, 13), splat(1));
  const v128_t normal =
      wasm_u32x4_shr(wasm_i32x4_add(wasm_i32x4_sub(abs, splat(0x38000000u)), wasm_i32x4_add(splat(0xFFF), odd)), 13);
  // Subnormal results (|x| < 2^-14): adding 0.5f lines the bits up with F16's last place, and
  // the float addition itself rounds to nearest even; the low bits are then the code.
  const v128_t half = splat(0x3F000000u);
  const v128_t subnormal = wasm_i32x4_sub(wasm_f32x4_add(abs, half), half);
  v128_t code = wasm_v128_bitselect(subnormal, normal, less(abs, 0x38800000u));
  // From 65520 (the largest finite F16 plus half a unit) up: infinity. NaN keeps its top payload bits, quieted.
  code = wasm_v128_bitselect(code, splat(0x7C00), less(abs, 0x477FF000u));
  const v128_t nan = wasm_v128_or(splat(0x7E00), wasm_v128_and(wasm_u32x4_shr(abs, 13), splat(0x3FF)));
  code = wasm_v128_bitselect(code, nan, less(abs, 0x7F800001u));
  return wasm_v128_or(code, sign);
}

template <v128_t (*Lanes)(v128_t)>
std::size_t narrow(const std::uint8_t* in, std::uint8_t* out, std::size_t count) {
  std::size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const v128_t low = Lanes(wasm_v128_load(in + 4 * i));
    const v128_t high = Lanes(wasm_v128_load(in + 4 * i + 16));
    wasm_v128_store(out + 2 * i, wasm_u16x8_narrow_i32x4(low, high));
  }
  return i;
}

}  // namespace

std::size_t narrow_f32_prefix(Dtype to, const std::uint8_t* in, std::uint8_t* out, std::size_t count) {
  if (to == Dtype::F16) return narrow<f16_lanes>(in, out, count);
  if (to == Dtype::BF16) return narrow<bf16_lanes>(in, out, count);
  return 0;
}

}  // namespace safetensors::simd

#endif  // __wasm_simd128__
