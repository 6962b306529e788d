// The table of adapter part roles to dimensions (cpp/adapter/part_dims.h): where rank, out and in
// sit in each role's shape, and a conv factor's whole input as check-adapter reads it.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "adapter/part_dims.h"

namespace safetensors::testing {
namespace {

using Shape = std::vector<std::uint64_t>;

PartDims dims_of(PartRole role, const Shape& shape, InputSpan span = InputSpan::Channels) {
  return part_dims(role_dims(role), shape, span);
}

TEST(AdapterPartDims, LoraDownAndUpGiveRankInAndOut) {
  const PartDims down = dims_of(PartRole::Down, {4, 320, 3, 3});
  EXPECT_EQ(down.rank, 4u);
  EXPECT_EQ(down.in, 320u);
  EXPECT_TRUE(wide_kernel(role_dims(PartRole::Down), Shape{4, 320, 3, 3}));
  EXPECT_FALSE(wide_kernel(role_dims(PartRole::Down), Shape{4, 320, 1, 1}));
  const PartDims up = dims_of(PartRole::Up, {640, 4, 1, 1});
  EXPECT_EQ(up.out, 640u);
  EXPECT_EQ(up.rank, 4u);
  EXPECT_FALSE(wide_kernel(role_dims(PartRole::Up), Shape{640, 4, 3, 3}));  // an up has no kernel of its own
}

TEST(AdapterPartDims, MlxPartsAreTransposed) {
  const PartDims a = dims_of(PartRole::DownT, {512, 8});
  EXPECT_EQ(a.in, 512u);
  EXPECT_EQ(a.rank, 8u);
  const PartDims b = dims_of(PartRole::UpT, {8, 1024});
  EXPECT_EQ(b.rank, 8u);
  EXPECT_EQ(b.out, 1024u);
}

TEST(AdapterPartDims, ConvFactorsTakeTheirWholeInputOnlyWhenAsked) {
  EXPECT_EQ(dims_of(PartRole::W2B, {4, 320, 3, 3}).in, 320u);
  EXPECT_EQ(dims_of(PartRole::W2B, {4, 320, 3, 3}, InputSpan::Whole).in, 320u * 3 * 3);
  EXPECT_EQ(dims_of(PartRole::Full, {640, 320, 3, 3}, InputSpan::Whole).in, 320u * 3 * 3);
  // A LoRA down keeps its kernel apart (checked against the base's kernel), whole or not.
  EXPECT_EQ(dims_of(PartRole::Down, {4, 320, 3, 3}, InputSpan::Whole).in, 320u);
  EXPECT_EQ(dims_of(PartRole::W1, {16}, InputSpan::Whole).in, 0u);  // too short: no input
}

TEST(AdapterPartDims, FactorsNameTheirSlot) {
  EXPECT_EQ(role_dims(PartRole::W1A).slot, DimSlot::First);
  EXPECT_EQ(role_dims(PartRole::W2).slot, DimSlot::Second);
  EXPECT_EQ(role_dims(PartRole::Full).slot, DimSlot::Module);
  const PartDims w1a = dims_of(PartRole::W1A, {320, 8});
  EXPECT_EQ(w1a.out, 320u);
  EXPECT_EQ(w1a.rank, 8u);
  EXPECT_EQ(dims_of(PartRole::Alpha, {}).rank, 0u);
  EXPECT_EQ(role_dims(PartRole::Alpha).rank, kNoDim);
}

}  // namespace
}  // namespace safetensors::testing
