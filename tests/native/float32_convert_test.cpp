// The scalar conversion kernels against an independent decoding (ldexp of the bit
// fields, special codes listed from the format specifications), on every code.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "convert/float32_convert.h"

namespace safetensors {
namespace {

struct Layout {
  int exp_bits, man_bits, bias;
};

// Value of a finite code from its fields: (-1)^s * 2^(e-bias) * (1 + m/2^M), or for e == 0
// 2^(1-bias) * m/2^M. Computed in double, which holds every value of these formats exactly.
double field_value(std::uint32_t code, Layout l) {
  const std::uint32_t m = code & ((1u << l.man_bits) - 1);
  const std::uint32_t e = (code >> l.man_bits) & ((1u << l.exp_bits) - 1);
  const bool negative = (code >> (l.exp_bits + l.man_bits)) & 1u;
  const double fraction = static_cast<double>(m) / static_cast<double>(1u << l.man_bits);
  const double magnitude =
      e == 0 ? std::ldexp(fraction, 1 - l.bias) : std::ldexp(1.0 + fraction, static_cast<int>(e) - l.bias);
  return negative ? -magnitude : magnitude;
}

enum class Expect { Value, Nan, PosInf, NegInf };

// Expected result kind for a code, from each format's definition.
Expect expect_kind(Dtype d, std::uint32_t code) {
  switch (d) {
    case Dtype::F16:
      if ((code & 0x7C00) == 0x7C00)
        return (code & 0x3FF) ? Expect::Nan : (code & 0x8000 ? Expect::NegInf : Expect::PosInf);
      return Expect::Value;
    case Dtype::F8_E5M2:
      if ((code & 0x7C) == 0x7C) return (code & 0x3) ? Expect::Nan : (code & 0x80 ? Expect::NegInf : Expect::PosInf);
      return Expect::Value;
    case Dtype::F8_E4M3: return (code & 0x7F) == 0x7F ? Expect::Nan : Expect::Value;
    case Dtype::F8_E4M3FNUZ:
    case Dtype::F8_E5M2FNUZ: return code == 0x80 ? Expect::Nan : Expect::Value;
    case Dtype::F8_E8M0: return code == 0xFF ? Expect::Nan : Expect::Value;
    default: return Expect::Value;
  }
}

double expected_value(Dtype d, std::uint32_t code) {
  switch (d) {
    case Dtype::F16: return field_value(code, {5, 10, 15});
    case Dtype::F8_E5M2: return field_value(code, {5, 2, 15});
    case Dtype::F8_E4M3: return field_value(code, {4, 3, 7});
    case Dtype::F8_E4M3FNUZ: return field_value(code, {4, 3, 8});
    case Dtype::F8_E5M2FNUZ: return field_value(code, {5, 2, 16});
    case Dtype::F8_E8M0: return std::ldexp(1.0, static_cast<int>(code) - 127);
    case Dtype::F4: return field_value(code, {2, 1, 1});
    case Dtype::BF16: {
      const std::uint32_t bits = code << 16;
      return static_cast<double>(std::bit_cast<float>(bits));
    }
    default: return 0;
  }
}

void check_every_code(Dtype d, int bits) {
  const std::uint32_t codes = 1u << bits;
  std::vector<std::uint8_t> in;
  for (std::uint32_t c = 0; c < codes; ++c) {
    if (bits == 16) {
      in.push_back(static_cast<std::uint8_t>(c & 0xFF));
      in.push_back(static_cast<std::uint8_t>(c >> 8));
    } else if (bits == 8) {
      in.push_back(static_cast<std::uint8_t>(c));
    }
  }
  std::vector<float> out(codes, -123.0f);
  ASSERT_TRUE(convert_to_f32_scalar(d, in.data(), out.data(), codes));
  for (std::uint32_t c = 0; c < codes; ++c) {
    const float got = out[c];
    switch (expect_kind(d, c)) {
      case Expect::Nan: EXPECT_TRUE(std::isnan(got)) << dtype_name(d) << " code " << c; break;
      case Expect::PosInf: EXPECT_EQ(got, std::numeric_limits<float>::infinity()) << c; break;
      case Expect::NegInf: EXPECT_EQ(got, -std::numeric_limits<float>::infinity()) << c; break;
      case Expect::Value: {
        const double want = expected_value(d, c);
        if (std::isnan(want)) {
          EXPECT_TRUE(std::isnan(got)) << dtype_name(d) << " code " << c;
          break;
        }
        EXPECT_EQ(static_cast<double>(got), want) << dtype_name(d) << " code " << c;
        EXPECT_EQ(std::signbit(got), std::signbit(want)) << dtype_name(d) << " code " << c << " (sign of zero)";
      }
    }
  }
}

TEST(Float32Convert, EveryF16Code) { check_every_code(Dtype::F16, 16); }
TEST(Float32Convert, EveryBF16Code) { check_every_code(Dtype::BF16, 16); }
TEST(Float32Convert, EveryF8E5M2Code) { check_every_code(Dtype::F8_E5M2, 8); }
TEST(Float32Convert, EveryF8E4M3Code) { check_every_code(Dtype::F8_E4M3, 8); }
TEST(Float32Convert, EveryF8E4M3FnuzCode) { check_every_code(Dtype::F8_E4M3FNUZ, 8); }
TEST(Float32Convert, EveryF8E5M2FnuzCode) { check_every_code(Dtype::F8_E5M2FNUZ, 8); }
TEST(Float32Convert, EveryF8E8M0Code) { check_every_code(Dtype::F8_E8M0, 8); }

float one(Dtype d, std::vector<std::uint8_t> bytes) {
  float out[2] = {-1, -1};
  EXPECT_TRUE(convert_to_f32_scalar(d, bytes.data(), out, d == Dtype::F4 ? 2 : 1));
  return out[0];
}

// Landmarks quoted from the specifications (largest finite values, smallest subnormals).
TEST(Float32Convert, FormatLandmarks) {
  EXPECT_EQ(one(Dtype::F16, {0x00, 0x3C}), 1.0f);
  EXPECT_EQ(one(Dtype::F16, {0xFF, 0x7B}), 65504.0f);
  EXPECT_EQ(one(Dtype::F16, {0x01, 0x00}), std::ldexp(1.0f, -24));
  EXPECT_EQ(one(Dtype::F8_E4M3, {0x7E}), 448.0f);
  EXPECT_EQ(one(Dtype::F8_E4M3, {0x01}), std::ldexp(1.0f, -9));
  EXPECT_EQ(one(Dtype::F8_E5M2, {0x7B}), 57344.0f);
  EXPECT_EQ(one(Dtype::F8_E4M3FNUZ, {0x7F}), 240.0f);
  EXPECT_EQ(one(Dtype::F8_E4M3FNUZ, {0x01}), std::ldexp(1.0f, -10));
  EXPECT_EQ(one(Dtype::F8_E5M2FNUZ, {0x7F}), 57344.0f);
  EXPECT_EQ(one(Dtype::F8_E5M2FNUZ, {0x01}), std::ldexp(1.0f, -17));
  EXPECT_EQ(one(Dtype::F8_E8M0, {0x7F}), 1.0f);
  EXPECT_EQ(one(Dtype::F8_E8M0, {0x00}), std::ldexp(1.0f, -127));
  EXPECT_EQ(one(Dtype::F8_E8M0, {0xFE}), std::ldexp(1.0f, 127));
}

TEST(Float32Convert, F4UsesTheLowNibbleFirst) {
  const float values[16] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6, -0.0f, -0.5f, -1, -1.5f, -2, -3, -4, -6};
  for (std::uint32_t lo = 0; lo < 16; ++lo) {
    for (std::uint32_t hi = 0; hi < 16; ++hi) {
      const std::uint8_t byte = static_cast<std::uint8_t>(lo | (hi << 4));
      float out[2];
      ASSERT_TRUE(convert_to_f32_scalar(Dtype::F4, &byte, out, 2));
      EXPECT_EQ(out[0], values[lo]);
      EXPECT_EQ(std::signbit(out[0]), std::signbit(values[lo]));
      EXPECT_EQ(out[1], values[hi]);
      EXPECT_EQ(static_cast<double>(out[1]), field_value(hi, {2, 1, 1}));
    }
  }
}

TEST(Float32Convert, WiderTypesRoundToNearestEven) {
  const double d[3] = {1.0 + std::ldexp(1.0, -24), 1.0 + 3 * std::ldexp(1.0, -24), -1e300};
  std::uint8_t bytes[sizeof d + 1];
  std::memcpy(bytes + 1, d, sizeof d);  // at an odd address
  float out[3];
  ASSERT_TRUE(convert_to_f32(Dtype::F64, bytes + 1, out, 3));
  EXPECT_EQ(out[0], 1.0f);                              // tie: to even
  EXPECT_EQ(out[1], 1.0f + 2 * std::ldexp(1.0f, -23));  // tie: to even (up)
  EXPECT_EQ(out[2], -std::numeric_limits<float>::infinity());

  const std::int64_t i64[2] = {std::numeric_limits<std::int64_t>::min(), (std::int64_t{1} << 24) + 1};
  std::memcpy(bytes, i64, sizeof i64);
  ASSERT_TRUE(convert_to_f32(Dtype::I64, bytes, out, 2));
  EXPECT_EQ(out[0], -std::ldexp(1.0f, 63));
  EXPECT_EQ(out[1], std::ldexp(1.0f, 24));
}

TEST(Float32Convert, IntegersAndBool) {
  const std::uint8_t raw[4] = {0xFF, 0x80, 0x01, 0x00};
  float out[4];
  ASSERT_TRUE(convert_to_f32(Dtype::I8, raw, out, 4));
  EXPECT_EQ(out[0], -1.0f);
  EXPECT_EQ(out[1], -128.0f);
  ASSERT_TRUE(convert_to_f32(Dtype::U8, raw, out, 4));
  EXPECT_EQ(out[0], 255.0f);
  ASSERT_TRUE(convert_to_f32(Dtype::U16, raw, out, 2));
  EXPECT_EQ(out[0], 33023.0f);
  ASSERT_TRUE(convert_to_f32(Dtype::I16, raw, out, 2));
  EXPECT_EQ(out[0], -32513.0f);
  ASSERT_TRUE(convert_to_f32(Dtype::BOOL, raw, out, 4));
  EXPECT_EQ(out[1], 1.0f);
  EXPECT_EQ(out[3], 0.0f);
  std::uint8_t bools[4];
  normalize_bool(raw, bools, 4);
  EXPECT_EQ(bools[0], 1);
  EXPECT_EQ(bools[1], 1);
  EXPECT_EQ(bools[3], 0);
}

// Found by the decode fuzzer: empty buffers may be null pointers, which memcpy must not see.
TEST(Float32Convert, EmptyInputWithNullPointers) {
  for (int d = 0; d < kDtypeCount; ++d) {
    const auto dtype = static_cast<Dtype>(d);
    EXPECT_EQ(convert_to_f32(dtype, nullptr, nullptr, 0), has_f32_form(dtype)) << dtype_name(dtype);
    EXPECT_EQ(convert_to_f32_scalar(dtype, nullptr, nullptr, 0), has_f32_form(dtype)) << dtype_name(dtype);
  }
}

TEST(Float32Convert, SixBitFloatsHaveNoFloat32Form) {
  const std::uint8_t raw[3] = {1, 2, 3};
  float out[4] = {7, 7, 7, 7};
  EXPECT_FALSE(convert_to_f32(Dtype::F6_E2M3, raw, out, 4));
  EXPECT_FALSE(has_f32_form(Dtype::F6_E3M2));
  EXPECT_TRUE(has_f32_form(Dtype::C64));
  EXPECT_EQ(out[0], 7.0f);
}

}  // namespace
}  // namespace safetensors
