// Rounding to F16 and BF16 on write (cpp/convert/narrow_float.h), against an independent
// reference: every finite value of the target format, sorted, and the nearest one (ties to
// the even code) found by search, with IEEE's overflow threshold.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "convert/float32_convert.h"
#include "convert/narrow_float.h"

namespace safetensors {
namespace {

// The target's non-negative finite values by code (codes 0 .. largest finite), from the
// reader's exact conversion.
std::vector<double> finite_values(Dtype dtype, std::uint16_t largest) {
  std::vector<double> out;
  for (std::uint32_t code = 0; code <= largest; ++code) {
    const auto c = static_cast<std::uint16_t>(code);
    float f;
    convert_to_f32_scalar(dtype, reinterpret_cast<const std::uint8_t*>(&c), &f, 1);
    out.push_back(f);
  }
  return out;
}

struct Reference {
  Dtype dtype;
  std::vector<double> values;  // increasing, index = code
  std::uint16_t infinity;
  std::uint16_t sign_bit = 0x8000;

  // The code of `x` (finite or infinite, not NaN) rounded to nearest, ties to even.
  std::uint16_t code_of(double x) const {
    const std::uint16_t sign = std::signbit(x) ? sign_bit : 0;
    const double a = std::fabs(x);
    const double largest = values.back();
    const double ulp = largest - values[values.size() - 2];
    if (a >= largest + ulp / 2) return sign | infinity;  // IEEE: from the largest plus half a unit up
    const auto hi = static_cast<std::size_t>(std::lower_bound(values.begin(), values.end(), a) - values.begin());
    if (values[hi] == a) return static_cast<std::uint16_t>(sign | hi);
    if (hi == values.size())
      return static_cast<std::uint16_t>(sign | (values.size() - 1));  // below the threshold: largest
    const std::size_t lo = hi - 1;
    const double below = a - values[lo], above = values[hi] - a;  // exact (Sterbenz) where it matters
    const std::size_t pick = below < above ? lo : above < below ? hi : (lo % 2 == 0 ? lo : hi);
    return static_cast<std::uint16_t>(sign | pick);
  }
};

const Reference& half_reference() {
  static const Reference r{Dtype::F16, finite_values(Dtype::F16, 0x7BFF), 0x7C00};
  return r;
}
const Reference& bfloat_reference() {
  static const Reference r{Dtype::BF16, finite_values(Dtype::BF16, 0x7F7F), 0x7F80};
  return r;
}

float f32(std::uint32_t bits) { return __builtin_bit_cast(float, bits); }

bool is_nan16(Dtype dtype, std::uint16_t code) {
  return dtype == Dtype::F16 ? (code & 0x7C00) == 0x7C00 && (code & 0x3FF) != 0
                             : (code & 0x7F80) == 0x7F80 && (code & 0x7F) != 0;
}

// Float32 patterns where rounding is decided: every exponent and sign, mantissas at and
// around both formats' halfway points and both parities of the last kept bit, and random ones.
std::vector<std::uint32_t> f32_patterns() {
  std::vector<std::uint32_t> out;
  const std::uint32_t mantissas[] = {0,        1,        2,        0xFFF,    0x1000,   0x1001,   0x1FFF,   0x2000,
                                     0x2FFF,   0x3000,   0x3001,   0x7FFF,   0x8000,   0x8001,   0x17FFF,  0x18000,
                                     0x18001,  0x400000, 0x7FE000, 0x7FEFFF, 0x7FF000, 0x7FF001, 0x7FFFFF, 0x7F8000,
                                     0x7F7FFF, 0x7F8001, 0x3FF000, 0x001000, 0x000800};
  std::mt19937 random(20261122);
  for (std::uint32_t sign = 0; sign < 2; ++sign) {
    for (std::uint32_t exponent = 0; exponent < 256; ++exponent) {
      for (std::uint32_t m : mantissas) out.push_back(sign << 31 | exponent << 23 | m);
      for (int k = 0; k < 64; ++k) out.push_back(sign << 31 | exponent << 23 | (random() & 0x7FFFFF));
    }
  }
  // The F16 subnormal range in full detail: exponents 102 .. 113, every 7th mantissa.
  for (std::uint32_t exponent = 102; exponent <= 113; ++exponent)
    for (std::uint32_t m = 0; m < 0x800000; m += 7) out.push_back(exponent << 23 | m);
  return out;
}

TEST(NarrowFloat, Float32RoundsToTheNearestF16AndBf16TiesToEven) {
  std::size_t checked = 0;
  for (const std::uint32_t bits : f32_patterns()) {
    const float x = f32(bits);
    const std::uint16_t half = f32_to_f16_bits(bits), bfloat = f32_to_bf16_bits(bits);
    if (std::isnan(x)) {
      ASSERT_TRUE(is_nan16(Dtype::F16, half)) << std::hex << bits;
      ASSERT_TRUE(is_nan16(Dtype::BF16, bfloat)) << std::hex << bits;
      ASSERT_EQ(half >> 15, bits >> 31);
      continue;
    }
    ASSERT_EQ(half, half_reference().code_of(x)) << std::hex << bits;
    ASSERT_EQ(bfloat, bfloat_reference().code_of(x)) << std::hex << bits;
    ++checked;
  }
  EXPECT_GT(checked, 1000000u);
}

TEST(NarrowFloat, Float64RoundsOnceNotThroughFloat32) {
  std::mt19937_64 random(7);
  std::vector<double> values = {0.0,
                                -0.0,
                                1.0,
                                65504.0,
                                65519.999,
                                65520.0,
                                1e300,
                                -1e-300,
                                5.960464477539063e-08,
                                2.9802322387695312e-08,
                                2.9802322387695313e-08,
                                std::ldexp(1.0, -25) * (1 + std::ldexp(1.0, -40)),
                                INFINITY,
                                -INFINITY};
  // Just above an F16 tie, by less than float32 can hold: through float32 it would become the tie
  // and round to even (down); once, it rounds up.
  values.push_back(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40));
  values.push_back(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40));
  for (int k = 0; k < 200000; ++k) {
    const double scale = std::ldexp(1.0, static_cast<int>(random() % 300) - 150);
    values.push_back(scale * (1.0 + static_cast<double>(random() >> 11) / 9007199254740992.0) *
                     ((random() & 1) ? 1 : -1));
  }
  for (const double v : values) {
    const auto bits = __builtin_bit_cast(std::uint64_t, v);
    ASSERT_EQ(f64_to_f16_bits(bits), half_reference().code_of(v)) << v;
    ASSERT_EQ(f64_to_bf16_bits(bits), bfloat_reference().code_of(v)) << v;
  }
  EXPECT_EQ(f64_to_f16_bits(__builtin_bit_cast(std::uint64_t, 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40))),
            0x3C01);
  EXPECT_TRUE(is_nan16(Dtype::F16, f64_to_f16_bits(0x7FF0000000000001ull)));  // a signalling NaN stays a NaN
  EXPECT_TRUE(is_nan16(Dtype::BF16, f64_to_bf16_bits(0xFFF0000000000001ull)));
}

TEST(NarrowFloat, KnownCodes) {
  EXPECT_EQ(f32_to_f16_bits(0x3F800000u), 0x3C00);   // 1
  EXPECT_EQ(f32_to_f16_bits(0x477FE000u), 0x7BFF);   // 65504, the largest
  EXPECT_EQ(f32_to_f16_bits(0x477FEFFFu), 0x7BFF);   // just under 65520
  EXPECT_EQ(f32_to_f16_bits(0x477FF000u), 0x7C00);   // 65520: a tie, to even: infinity
  EXPECT_EQ(f32_to_f16_bits(0x33800000u), 0x0001);   // 2^-24, the smallest subnormal
  EXPECT_EQ(f32_to_f16_bits(0x33000000u), 0x0000);   // 2^-25: a tie, to even: zero
  EXPECT_EQ(f32_to_f16_bits(0x33400000u), 0x0001);   // 3 * 2^-26
  EXPECT_EQ(f32_to_f16_bits(0x80000000u), 0x8000);   // -0
  EXPECT_EQ(f32_to_f16_bits(0x00000001u), 0x0000);   // the smallest float32 subnormal
  EXPECT_EQ(f32_to_f16_bits(0xFF800000u), 0xFC00);   // -infinity
  EXPECT_EQ(f32_to_f16_bits(0x7FC00000u), 0x7E00);   // the quiet NaN
  EXPECT_EQ(f32_to_f16_bits(0xFF800001u), 0xFE00);   // a signalling NaN: quieted, still a NaN
  EXPECT_EQ(f32_to_bf16_bits(0x3F808000u), 0x3F80);  // a tie, to even: down
  EXPECT_EQ(f32_to_bf16_bits(0x3F818000u), 0x3F82);  // a tie, to even: up
  EXPECT_EQ(f32_to_bf16_bits(0x7F7FFFFFu), 0x7F80);  // the largest float32: infinity
  EXPECT_EQ(f32_to_bf16_bits(0x7F7F7FFFu), 0x7F7F);
  EXPECT_EQ(f32_to_bf16_bits(0x00008000u), 0x0000);  // a subnormal tie, to even: zero
  EXPECT_EQ(f32_to_bf16_bits(0x7F800001u), 0x7FC0);  // a signalling NaN: quieted
}

TEST(NarrowFloat, HalfFormatsConvertThroughTheirExactFloat32Values) {
  std::vector<std::uint16_t> codes(65536);
  for (std::uint32_t c = 0; c < 65536; ++c) codes[c] = static_cast<std::uint16_t>(c);
  const auto* in = reinterpret_cast<const std::uint8_t*>(codes.data());
  std::vector<float> f(65536);
  std::vector<std::uint16_t> out(65536), expected(65536);
  for (const auto [from, to] : {std::pair{Dtype::F16, Dtype::BF16}, std::pair{Dtype::BF16, Dtype::F16}}) {
    ASSERT_TRUE(convert_floats_scalar(from, to, in, reinterpret_cast<std::uint8_t*>(out.data()), 65536));
    convert_to_f32_scalar(from, in, f.data(), 65536);
    convert_floats_scalar(Dtype::F32, to, reinterpret_cast<const std::uint8_t*>(f.data()),
                          reinterpret_cast<std::uint8_t*>(expected.data()), 65536);
    EXPECT_EQ(out, expected);
  }
  // `out` now holds BF16 codes written as F16: 1.0 stays 1.0, BF16's large values overflow.
  EXPECT_EQ(out[0x3F80], 0x3C00);
  EXPECT_EQ(out[0x4780], 0x7C00);  // 65536: past F16's largest
  EXPECT_FALSE(can_narrow(Dtype::I32, Dtype::F16));
  EXPECT_FALSE(can_narrow(Dtype::F32, Dtype::F32));
  std::uint8_t dummy[4] = {};
  EXPECT_FALSE(convert_floats(Dtype::F8_E4M3, Dtype::F16, dummy, dummy, 1));
}

}  // namespace
}  // namespace safetensors
