// A family from the metadata alone, where the keys name none (the conventions of
// card_metadata.h), and no family where neither does.
#include <gtest/gtest.h>

#include "card_test_support.h"

namespace safetensors::testing {
namespace {

TEST(CardFamily, MetadataNamesTheFamilyWhenKeysDoNot) {
  const ModelCard card = card_of({{"a", {2}}}, {{"modelspec.architecture", "stable-diffusion-xl-v1-base"}});
  EXPECT_EQ(family_id(card), "sdxl");
  EXPECT_EQ(card.kind, CardKind::Model);
  ASSERT_EQ(card.family->evidence.size(), 1u);
  EXPECT_EQ(card.family->evidence.front(), "modelspec.architecture = 'stable-diffusion-xl-v1-base'");
}

TEST(CardFamily, UnrelatedTensorsAreUnknown) {
  const ModelCard card = card_of({{"int64_3", {3}, Dtype::I64}, {"float32_35", {3, 5}, Dtype::F32}});
  EXPECT_EQ(card.kind, CardKind::Unknown);
  EXPECT_FALSE(card.family);
  EXPECT_FALSE(card.adapter);
}

}  // namespace
}  // namespace safetensors::testing
