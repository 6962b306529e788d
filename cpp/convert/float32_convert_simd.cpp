// WASM SIMD kernels: F16, BF16 and the 8-bit float kinds to float32, 4 lanes at a time,
// integer operations only except one exact subtraction whose operands are always normal
// floats (subnormal operands are slow on x86, the usual host of browsers).
#include "convert/float32_convert_simd.h"

#if defined(__wasm_simd128__)

#include <wasm_simd128.h>

#include "convert/minifloat.h"

namespace safetensors::simd {
namespace {

v128_t splat(std::uint32_t v) { return wasm_i32x4_splat(static_cast<int>(v)); }

// All ones in lanes where `value` (as a signed 32-bit number) is negative. Written as a
// shift rather than a comparison so that LLVM keeps it in 32-bit lanes: comparisons it
// narrows to 16 bits come back as shuffles that V8 runs slowly (measured: 2x on F16).
v128_t negative_mask(v128_t value) { return wasm_i32x4_shr(value, 31); }

// Float32 bits of four codes of format F held in 32-bit lanes; the same results,
// bit for bit, as minifloat_to_f32_bits<F>.
template <MiniFloatFormat F>
v128_t minifloat_lanes(v128_t code) {
  constexpr int kBits = F.exp_bits + F.man_bits;
  constexpr std::uint32_t kExpMax = (1u << F.exp_bits) - 1;
  const v128_t sign = wasm_i32x4_shl(wasm_u32x4_shr(code, kBits), 31);
  const v128_t em = wasm_v128_and(code, splat((1u << kBits) - 1));
  const v128_t shifted = wasm_i32x4_shl(em, 23 - F.man_bits);
  const v128_t normal = wasm_i32x4_add(shifted, splat(static_cast<std::uint32_t>(127 - F.bias) << 23));
  // Subnormal m: 2^(1-bias) * (1 + m/2^M) - 2^(1-bias) = m * 2^(1-bias-M), exactly.
  const v128_t base = splat(static_cast<std::uint32_t>(128 - F.bias) << 23);
  const v128_t subnormal = wasm_f32x4_sub(wasm_i32x4_add(shifted, base), base);
  const v128_t is_subnormal = negative_mask(wasm_i32x4_sub(em, splat(1u << F.man_bits)));
  v128_t bits = wasm_v128_bitselect(subnormal, normal, is_subnormal);
  if constexpr (F.specials == MiniFloatSpecials::Ieee) {
    // em >= kExpMax << M: infinity or NaN; set every exponent bit.
    const v128_t finite = negative_mask(wasm_i32x4_sub(em, splat(kExpMax << F.man_bits)));
    bits = wasm_v128_or(bits, wasm_v128_andnot(splat(0x7F800000u), finite));
  }
  if constexpr (F.specials == MiniFloatSpecials::FiniteNan) {
    // Only em == all ones is NaN: the one lane where em - all ones is not negative.
    const v128_t not_nan = negative_mask(wasm_i32x4_sub(em, splat((1u << kBits) - 1)));
    bits = wasm_v128_or(bits, wasm_v128_andnot(splat(0x7F800000u), not_nan));
  }
  bits = wasm_v128_or(bits, sign);
  if constexpr (F.specials == MiniFloatSpecials::UnsignedNan) {
    bits = wasm_v128_bitselect(splat(kQuietNanBits), bits, wasm_i32x4_eq(code, splat(1u << kBits)));
  }
  return bits;
}

v128_t e8m0_lanes(v128_t code) {
  v128_t bits = wasm_i32x4_shl(code, 23);
  bits = wasm_v128_bitselect(splat(0x00400000u), bits, wasm_i32x4_eq(code, splat(0)));
  return wasm_v128_bitselect(splat(kQuietNanBits), bits, wasm_i32x4_eq(code, splat(0xFF)));
}

// Each 32-bit lane of the input holds two codes: the low half is the even element, the
// high half the odd one. Converting them as two vectors of 32-bit lanes and interleaving
// the results keeps LLVM from widening with shuffles and narrowing the masks to 16 bits.
std::size_t f16(const std::uint8_t* in, float* out, std::size_t count) {
  std::size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const v128_t v = wasm_v128_load(in + 2 * i);
    const v128_t even = minifloat_lanes<kF16>(wasm_v128_and(v, splat(0xFFFFu)));
    const v128_t odd = minifloat_lanes<kF16>(wasm_u32x4_shr(v, 16));
    wasm_v128_store(out + i, wasm_i32x4_shuffle(even, odd, 0, 4, 1, 5));
    wasm_v128_store(out + i + 4, wasm_i32x4_shuffle(even, odd, 2, 6, 3, 7));
  }
  return i;
}

std::size_t bf16(const std::uint8_t* in, float* out, std::size_t count) {
  std::size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const v128_t v = wasm_v128_load(in + 2 * i);
    wasm_v128_store(out + i, wasm_i32x4_shl(wasm_u32x4_extend_low_u16x8(v), 16));
    wasm_v128_store(out + i + 4, wasm_i32x4_shl(wasm_u32x4_extend_high_u16x8(v), 16));
  }
  return i;
}

// Sixteen 8-bit codes per step, widened to four vectors of 32-bit lanes.
template <v128_t (*Lanes)(v128_t)>
std::size_t bytes(const std::uint8_t* in, float* out, std::size_t count) {
  std::size_t i = 0;
  for (; i + 16 <= count; i += 16) {
    const v128_t v = wasm_v128_load(in + i);
    const v128_t low = wasm_u16x8_extend_low_u8x16(v);
    const v128_t high = wasm_u16x8_extend_high_u8x16(v);
    wasm_v128_store(out + i, Lanes(wasm_u32x4_extend_low_u16x8(low)));
    wasm_v128_store(out + i + 4, Lanes(wasm_u32x4_extend_high_u16x8(low)));
    wasm_v128_store(out + i + 8, Lanes(wasm_u32x4_extend_low_u16x8(high)));
    wasm_v128_store(out + i + 12, Lanes(wasm_u32x4_extend_high_u16x8(high)));
  }
  return i;
}

}  // namespace

std::size_t convert_to_f32_prefix(Dtype dtype, const std::uint8_t* in, float* out, std::size_t count) {
  switch (dtype) {
    case Dtype::F16: return f16(in, out, count);
    case Dtype::BF16: return bf16(in, out, count);
    case Dtype::F8_E5M2: return bytes<minifloat_lanes<kF8E5M2>>(in, out, count);
    case Dtype::F8_E4M3: return bytes<minifloat_lanes<kF8E4M3>>(in, out, count);
    case Dtype::F8_E4M3FNUZ: return bytes<minifloat_lanes<kF8E4M3Fnuz>>(in, out, count);
    case Dtype::F8_E5M2FNUZ: return bytes<minifloat_lanes<kF8E5M2Fnuz>>(in, out, count);
    case Dtype::F8_E8M0: return bytes<e8m0_lanes>(in, out, count);
    default: return 0;
  }
}

}  // namespace safetensors::simd

#endif  // __wasm_simd128__
