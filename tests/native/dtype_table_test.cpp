// The dtype table against facts stated independently here, on purpose: an oracle written
// from docs/reference-rules.md ("Dtype sizes in bits"), not derived from the table.
#include <gtest/gtest.h>

#include <string>

#include "convert/float32_convert.h"
#include "format/dtype.h"

namespace safetensors {
namespace {

struct Expected {
  const char* name;
  std::uint32_t bits;
};

// The reference's Dtype enum in declaration order, with bitsize().
constexpr Expected kReference[] = {
    {"BOOL", 8},    {"F4", 4},      {"F6_E2M3", 6}, {"F6_E3M2", 6},     {"U8", 8},          {"I8", 8},
    {"F8_E5M2", 8}, {"F8_E4M3", 8}, {"F8_E8M0", 8}, {"F8_E4M3FNUZ", 8}, {"F8_E5M2FNUZ", 8}, {"I16", 16},
    {"U16", 16},    {"F16", 16},    {"BF16", 16},   {"I32", 32},        {"U32", 32},        {"F32", 32},
    {"C64", 64},    {"F64", 64},    {"I64", 64},    {"U64", 64},
};

TEST(DtypeTable, NamesBitsAndOrderAreTheReferences) {
  ASSERT_EQ(std::size(kReference), static_cast<std::size_t>(kDtypeCount));
  for (int i = 0; i < kDtypeCount; ++i) {
    const auto d = static_cast<Dtype>(i);
    EXPECT_EQ(dtype_name(d), kReference[i].name);
    EXPECT_EQ(dtype_bits(d), kReference[i].bits) << kReference[i].name;
    EXPECT_EQ(parse_dtype(kReference[i].name), d);
  }
  for (const char* rejected : {"f16", "F8_E4M3FN", "C128", "U4", "", "F16 "})
    EXPECT_FALSE(parse_dtype(rejected)) << rejected;
}

TEST(DtypeTable, DerivedSizes) {
  EXPECT_EQ(dtype_element_bytes(Dtype::C64), 8u);
  EXPECT_EQ(dtype_element_bytes(Dtype::BF16), 2u);
  EXPECT_EQ(dtype_element_bytes(Dtype::F4), 0u);
  EXPECT_EQ(dtype_element_bytes(Dtype::F6_E3M2), 0u);
  EXPECT_EQ(dtype_unit(Dtype::F16).bytes, 2u);
  EXPECT_EQ(dtype_unit(Dtype::F16).elements, 1u);
  EXPECT_EQ(dtype_unit(Dtype::F4).elements, 2u);
  EXPECT_EQ(dtype_unit(Dtype::F6_E2M3).bytes, 3u);
}

// has_f32_form comes from the table; the kernels must agree with it for every dtype.
TEST(DtypeTable, EveryDtypeWithAFloat32FormHasAKernel) {
  for (int i = 0; i < kDtypeCount; ++i) {
    const auto d = static_cast<Dtype>(i);
    const DtypeUnit unit = dtype_unit(d);
    std::uint8_t in[8] = {};
    float out[4] = {};
    EXPECT_EQ(convert_to_f32_scalar(d, in, out, unit.elements), has_f32_form(d)) << dtype_name(d);
  }
  EXPECT_FALSE(has_f32_form(Dtype::F6_E2M3));
  EXPECT_TRUE(has_f32_form(Dtype::BOOL));
}

}  // namespace
}  // namespace safetensors
