// The small float formats of safetensors (F16, the F8 kinds, F4) and their exact
// scalar conversion to float32 bits. Shared by the scalar kernels and, as format
// parameters, by the WASM SIMD ones.
#pragma once

#include <bit>
#include <cstdint>

namespace safetensors {

/// @brief How a format spends its largest codes.
enum class MiniFloatSpecials : std::uint8_t {
  Ieee,         ///< all-ones exponent: infinity (mantissa 0) or NaN (F16, F8_E5M2)
  FiniteNan,    ///< only all-ones exponent and mantissa is NaN, no infinity (F8_E4M3, "FN")
  UnsignedNan,  ///< the negative-zero code is the only NaN, no infinity, no -0 ("FNUZ")
  None,         ///< every code is a finite number (F4 E2M1)
};

/// @brief A sign bit, `exp_bits` exponent bits with `bias`, `man_bits` mantissa bits.
struct MiniFloatFormat {
  int exp_bits;
  int man_bits;
  int bias;
  MiniFloatSpecials specials;
};

// Formats as defined by IEEE 754 (F16), the OCP 8-bit floating point specification v1.0
// (E4M3, E5M2, E8M0), the OCP microscaling formats spec v1.0 (F4 = E2M1) and the
// "FNUZ" variants of LLVM's APFloat / ml_dtypes (bias one higher, 0x80 the only NaN).
inline constexpr MiniFloatFormat kF16{5, 10, 15, MiniFloatSpecials::Ieee};
inline constexpr MiniFloatFormat kF8E5M2{5, 2, 15, MiniFloatSpecials::Ieee};
inline constexpr MiniFloatFormat kF8E4M3{4, 3, 7, MiniFloatSpecials::FiniteNan};
inline constexpr MiniFloatFormat kF8E4M3Fnuz{4, 3, 8, MiniFloatSpecials::UnsignedNan};
inline constexpr MiniFloatFormat kF8E5M2Fnuz{5, 2, 16, MiniFloatSpecials::UnsignedNan};
inline constexpr MiniFloatFormat kF4E2M1{2, 1, 1, MiniFloatSpecials::None};

/// @brief The float with these bits (Emscripten 3.1.6's libc++ has no std::bit_cast).
inline float f32_from_bits(std::uint32_t bits) { return __builtin_bit_cast(float, bits); }

/// @brief The float32 bits of a quiet NaN with no payload (the NaN of formats with one NaN).
inline constexpr std::uint32_t kQuietNanBits = 0x7FC00000u;

/// @brief Exact float32 bits of `code` in format `F`. NaN payloads of IEEE-style formats
/// are kept (shifted into place, as numpy and PyTorch do); single-NaN formats give kQuietNanBits.
template <MiniFloatFormat F>
constexpr std::uint32_t minifloat_to_f32_bits(std::uint32_t code) {
  constexpr int kBits = F.exp_bits + F.man_bits;
  constexpr std::uint32_t kManMask = (1u << F.man_bits) - 1;
  constexpr std::uint32_t kExpMax = (1u << F.exp_bits) - 1;
  const std::uint32_t sign = ((code >> kBits) & 1u) << 31;
  const std::uint32_t exponent = (code >> F.man_bits) & kExpMax;
  const std::uint32_t mantissa = code & kManMask;
  if constexpr (F.specials == MiniFloatSpecials::UnsignedNan) {
    if (code == (1u << kBits)) return kQuietNanBits;
  }
  if constexpr (F.specials == MiniFloatSpecials::Ieee) {
    if (exponent == kExpMax) return sign | 0x7F800000u | (mantissa << (23 - F.man_bits));
  }
  if constexpr (F.specials == MiniFloatSpecials::FiniteNan) {
    if (exponent == kExpMax && mantissa == kManMask) return sign | 0x7F800000u | (mantissa << (23 - F.man_bits));
  }
  if (exponent != 0) {
    return sign | ((exponent + 127 - F.bias) << 23) | (mantissa << (23 - F.man_bits));
  }
  if (mantissa == 0) return sign;
  // Subnormal: mantissa * 2^(1 - bias - man_bits), renormalised (always normal in float32).
  const int top = std::bit_width(mantissa) - 1;
  const std::uint32_t f32_exponent = static_cast<std::uint32_t>(127 + 1 - F.bias - F.man_bits + top);
  return sign | (f32_exponent << 23) | ((mantissa << (23 - top)) & 0x7FFFFFu);
}

/// @brief Float32 bits of an F8_E8M0 scale: 2^(code-127); 0xFF is NaN; 2^-127 is a float32 subnormal.
constexpr std::uint32_t e8m0_to_f32_bits(std::uint32_t code) {
  if (code == 0xFF) return kQuietNanBits;
  if (code == 0) return 0x00400000u;
  return code << 23;
}

}  // namespace safetensors
