// Rounding float32 and float64 values to F16 and BF16 (narrow_float.h). One integer
// algorithm, a template over the source and target formats, does every scalar case; the
// WASM SIMD kernels (narrow_float_simd.cpp) are checked against it bit for bit.
#include "convert/narrow_float.h"

#include <cstring>

#include "convert/float32_convert.h"

#if defined(__wasm_simd128__)
#include "convert/narrow_float_simd.h"
#endif

namespace safetensors {
namespace {

struct IeeeFormat {
  int exp_bits;
  int man_bits;
};
constexpr IeeeFormat kFloat32{8, 23};
constexpr IeeeFormat kFloat64{11, 52};
constexpr IeeeFormat kHalf{5, 10};
constexpr IeeeFormat kBFloat{8, 7};

// Rounds the value with bits `bits` in format S to format T (both IEEE binary formats with
// infinities and NaN), to nearest with ties to even. Integers only: no FPU rounding mode or
// NaN canonicalisation can change the result.
template <IeeeFormat S, IeeeFormat T>
std::uint16_t round_ieee(std::uint64_t bits) {
  constexpr int kSrcBias = (1 << (S.exp_bits - 1)) - 1;
  constexpr int kDstBias = (1 << (T.exp_bits - 1)) - 1;
  constexpr std::uint64_t kSrcMan = (std::uint64_t{1} << S.man_bits) - 1;
  constexpr std::uint32_t kDstExpMax = (1u << T.exp_bits) - 1;
  constexpr std::uint32_t kDstMan = (1u << T.man_bits) - 1;
  const std::uint32_t sign = static_cast<std::uint32_t>((bits >> (S.exp_bits + S.man_bits)) & 1u)
                             << (T.exp_bits + T.man_bits);
  const auto exponent = static_cast<int>((bits >> S.man_bits) & ((1u << S.exp_bits) - 1));
  const std::uint64_t mantissa = bits & kSrcMan;
  if (exponent == (1 << S.exp_bits) - 1) {
    if (mantissa == 0) return static_cast<std::uint16_t>(sign | (kDstExpMax << T.man_bits));  // infinity
    // NaN: the top payload bits, and the quiet bit so that it stays a NaN.
    const auto payload = static_cast<std::uint32_t>(mantissa >> (S.man_bits - T.man_bits)) | (1u << (T.man_bits - 1));
    return static_cast<std::uint16_t>(sign | (kDstExpMax << T.man_bits) | payload);
  }
  if (exponent == 0 && mantissa == 0) return static_cast<std::uint16_t>(sign);
  // value = significand * 2^(e - S.man_bits), with the implicit bit for normal numbers.
  const int e = exponent == 0 ? 1 - kSrcBias : exponent - kSrcBias;
  const std::uint64_t significand = exponent == 0 ? mantissa : (mantissa | (kSrcMan + 1));
  // Where the target's last mantissa bit falls: its exponent is e (normal) or its minimum.
  int top = e;  // the exponent of the value's leading bit, for normal sources
  if (exponent == 0) {
    std::uint64_t s = significand;
    top = e - S.man_bits - 1;
    while (s != 0) {
      s >>= 1;
      ++top;
    }
  }
  const int target_exp = top < 1 - kDstBias ? 1 - kDstBias : top;
  // Units of the target's last place: 2^(target_exp - T.man_bits); drop this many source bits.
  const int drop = (target_exp - T.man_bits) - (e - S.man_bits);
  std::uint64_t q;
  if (drop >= 64) {
    q = 0;  // far below half a unit: rounds to zero (significand < 2^53 <= 2^(drop-1))
  } else if (drop <= 0) {
    q = significand << -drop;
  } else {
    q = significand >> drop;
    const std::uint64_t rest = significand & ((std::uint64_t{1} << drop) - 1);
    const std::uint64_t half = std::uint64_t{1} << (drop - 1);
    if (rest > half || (rest == half && (q & 1u) != 0)) ++q;
  }
  // q counts units of the last place from 0: below 2^T.man_bits a subnormal, else normal
  // with q's leading bit implicit; rounding up may carry into the next binade.
  std::uint32_t biased = static_cast<std::uint32_t>(target_exp + kDstBias);
  if (q >> (T.man_bits + 1) != 0) {
    q >>= 1;
    ++biased;
  }
  if (q >> T.man_bits == 0)
    return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(q));                       // subnormal or zero
  if (biased >= kDstExpMax) return static_cast<std::uint16_t>(sign | (kDstExpMax << T.man_bits));  // overflow
  return static_cast<std::uint16_t>(sign | (biased << T.man_bits) | (static_cast<std::uint32_t>(q) & kDstMan));
}

template <typename Bits>
Bits load(const std::uint8_t* p) {
  Bits v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

void store16(std::uint8_t* p, std::uint16_t v) { std::memcpy(p, &v, 2); }

bool is_target(Dtype to) { return to == Dtype::F16 || to == Dtype::BF16; }

// F16 or BF16 to `to` through their exact float32 values, a block at a time, with the given
// widening and narrowing (scalar, or the SIMD-dispatching ones).
template <bool (*Widen)(Dtype, const std::uint8_t*, float*, std::size_t),
          bool (*Narrow)(Dtype, Dtype, const std::uint8_t*, std::uint8_t*, std::size_t)>
bool through_f32(Dtype from, Dtype to, const std::uint8_t* in, std::uint8_t* out, std::size_t count) {
  constexpr std::size_t kBlock = 256;
  float block[kBlock];
  for (std::size_t at = 0; at < count; at += kBlock) {
    const std::size_t n = count - at < kBlock ? count - at : kBlock;
    Widen(from, in + 2 * at, block, n);
    Narrow(Dtype::F32, to, reinterpret_cast<const std::uint8_t*>(block), out + 2 * at, n);
  }
  return true;
}

}  // namespace

std::uint16_t f32_to_f16_bits(std::uint32_t f32) { return round_ieee<kFloat32, kHalf>(f32); }
std::uint16_t f32_to_bf16_bits(std::uint32_t f32) { return round_ieee<kFloat32, kBFloat>(f32); }
std::uint16_t f64_to_f16_bits(std::uint64_t f64) { return round_ieee<kFloat64, kHalf>(f64); }
std::uint16_t f64_to_bf16_bits(std::uint64_t f64) { return round_ieee<kFloat64, kBFloat>(f64); }

bool can_narrow(Dtype from, Dtype to) {
  return is_target(to) && (from == Dtype::F32 || from == Dtype::F64 || from == Dtype::F16 || from == Dtype::BF16);
}

bool convert_floats_scalar(Dtype from, Dtype to, const std::uint8_t* in, std::uint8_t* out, std::size_t count) {
  if (!can_narrow(from, to)) return false;
  const bool half = to == Dtype::F16;
  if (from == Dtype::F64) {
    for (std::size_t i = 0; i < count; ++i) {
      const auto bits = load<std::uint64_t>(in + 8 * i);
      store16(out + 2 * i, half ? f64_to_f16_bits(bits) : f64_to_bf16_bits(bits));
    }
    return true;
  }
  if (from == Dtype::F32) {
    for (std::size_t i = 0; i < count; ++i) {
      const auto bits = load<std::uint32_t>(in + 4 * i);
      store16(out + 2 * i, half ? f32_to_f16_bits(bits) : f32_to_bf16_bits(bits));
    }
    return true;
  }
  return through_f32<convert_to_f32_scalar, convert_floats_scalar>(from, to, in, out, count);  // F16 or BF16
}

bool convert_floats(Dtype from, Dtype to, const std::uint8_t* in, std::uint8_t* out, std::size_t count) {
  if (!can_narrow(from, to)) return false;
#if defined(__wasm_simd128__)
  if (from == Dtype::F32) {
    const std::size_t done = simd::narrow_f32_prefix(to, in, out, count);
    return convert_floats_scalar(from, to, in + 4 * done, out + 2 * done, count - done);
  }
  if (from == Dtype::F16 || from == Dtype::BF16)
    return through_f32<convert_to_f32, convert_floats>(from, to, in, out, count);
#endif
  return convert_floats_scalar(from, to, in, out, count);
}

}  // namespace safetensors
