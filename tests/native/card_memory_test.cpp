// The memory estimate on the card: bytes as stored by dtype, and the weights at 16, 8 and 4 bits.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "card_test_support.h"

namespace safetensors::testing {
namespace {

using ByDtype = std::vector<std::pair<std::string, double>>;

TEST(CardMemory, BytesByDtypeAndTheWeightsAtEachWidth) {
  const ModelCard card =
      card_of({{"a.weight", {2, 3}, Dtype::F32}, {"b.weight", {4}, Dtype::BF16}, {"c", {}, Dtype::U8}});
  EXPECT_EQ(card.memory.bytes, 24 + 8 + 1);
  EXPECT_EQ(card.memory.by_dtype, (ByDtype{{"U8", 1}, {"BF16", 8}, {"F32", 24}}));
  // 11 parameters (a scalar counts one).
  EXPECT_EQ(card.memory.at_16_bit, 22);
  EXPECT_EQ(card.memory.at_8_bit, 11);
  EXPECT_EQ(card.memory.at_4_bit, 5.5);
}

TEST(CardMemory, PackedLayoutsUseTheirUnpackedCount) {
  // GPTQ 4-bit: 4096 x 1024 weights in qweight [512, 1024] I32 (see card_parameters_test.cpp).
  const std::string m = "model.layers.0.self_attn.k_proj.";
  const ModelCard gptq = card_of({{m + "qweight", {512, 1024}, Dtype::I32},
                                  {m + "qzeros", {32, 128}, Dtype::I32},
                                  {m + "scales", {32, 1024}, Dtype::F16}});
  ASSERT_TRUE(gptq.parameters.quantized);
  EXPECT_EQ(gptq.memory.bytes, 512.0 * 1024 * 4 + 32 * 128 * 4 + 32 * 1024 * 2);
  EXPECT_EQ(gptq.memory.at_4_bit, 4096.0 * 1024 / 2);
  EXPECT_EQ(gptq.memory.at_16_bit, 4096.0 * 1024 * 2);
  // MLX's count needs config.json (its bit width): no estimate rather than a wrong one.
  const std::string q = "model.layers.0.self_attn.q_proj.";
  const ModelCard mlx = card_of({{q + "weight", {4096, 512}, Dtype::U32},
                                 {q + "scales", {4096, 64}, Dtype::F16},
                                 {q + "biases", {4096, 64}, Dtype::F16}});
  EXPECT_FALSE(mlx.memory.at_8_bit);
  EXPECT_EQ(mlx.memory.bytes, 4096.0 * 512 * 4 + 2 * 4096 * 64 * 2);
}

}  // namespace
}  // namespace safetensors::testing
