// The key index behind the family rules: patterns, and the exact index that keeps only the
// names the rules ask for (with a scan for any other name).
#include <gtest/gtest.h>

#include <span>
#include <string>
#include <vector>

#include "card/detect_family.h"
#include "card/key_index.h"
#include "card_test_support.h"

namespace safetensors::testing {
namespace {

const std::vector<std::uint64_t> kShape{4, 8};

TEST(CardKeyIndex, NameSetAnswersExactly) {
  const std::vector<std::string> names = {"a", "ab", "model.layers.0.self_attn.q_proj.weight", "", "exactly8"};
  const NameSet set(names);
  for (const std::string& n : names) EXPECT_TRUE(set.contains(n)) << n;
  // Same length, first and last 8 bytes (one signature bit), another middle: still no.
  EXPECT_FALSE(set.contains("model.layers.1.self_attn.q_proj.weight"));
  EXPECT_FALSE(set.contains("model.layers.0.self_attn.k_proj.weight"));
  for (const char* n : {"b", "a ", "abc", "exactly9", "exactly", "model.layers.0.self_attn.q_proj.weigh"}) {
    EXPECT_FALSE(set.contains(n)) << n;
  }
}

TEST(CardKeyIndex, ExactIndexFindsWantedNamesAndScansForOthers) {
  const std::vector<std::string> wanted = {"model.embed_tokens.weight"};
  const NameSet set(wanted);
  const std::vector<std::string> names = {"model.norm.weight", "model.embed_tokens.weight", "lm_head.weight"};
  KeyIndex index(set, names.size());
  for (const std::string& n : names) index.add(n, kShape);
  EXPECT_EQ(index.size(), 3u);
  ASSERT_NE(index.find("model.embed_tokens.weight"), nullptr);
  EXPECT_EQ(index.find("model.embed_tokens.weight")->name, "model.embed_tokens.weight");
  ASSERT_NE(index.find("lm_head.weight"), nullptr);                      // not wanted: found by the scan
  EXPECT_EQ(index.find("lm_head.weight")->shape.data(), kShape.data());  // the shape itself, not a copy
  EXPECT_EQ(index.find("model.layers.0.mlp.gate_proj.weight"), nullptr);
  // Exact: numbers are not wildcards.
  EXPECT_EQ(index.find("model.embed_tokens.weight.1"), nullptr);
}

TEST(CardKeyIndex, PatternIndexTreatsNumbersAsWildcards) {
  KeyIndex index;
  index.add("input_blocks.7.1.transformer_blocks.0.attn2.to_k.weight", kShape);
  ASSERT_NE(index.find("input_blocks.4.1.transformer_blocks.0.attn2.to_k.weight"), nullptr);
  EXPECT_EQ(index.find("input_blocks.4.1.transformer_blocks.0.attn2.to_k.weight")->name,
            "input_blocks.7.1.transformer_blocks.0.attn2.to_k.weight");
  EXPECT_EQ(index.find("input_blocks.4.1.transformer_blocks.0.attn2.to_v.weight"), nullptr);
}

TEST(CardKeyIndex, EveryRuleKeyUnderEveryRootIsWanted) {
  static constexpr std::string_view kNoRoot[] = {""};  // kohya module names
  const NameSet& wanted = exact_rule_keys();
  for (const FamilyRule& rule : kFamilyRules) {
    using Roots = std::span<const std::string_view>;
    const Roots roots = rule.domain == Domain::Diffusion ? Roots(kDiffusionRoots)
                        : rule.domain == Domain::Text    ? Roots(kTextRoots)
                                                         : Roots(kNoRoot);
    for (std::string_view root : roots) {
      for (const Clue& clue : rule.clues) {
        if (!clue.key.empty()) EXPECT_TRUE(wanted.contains(std::string(root) + std::string(clue.key))) << clue.key;
      }
    }
  }
  for (std::string_view root : kTextRoots) {
    for (std::string_view key : kEmbeddingKeys) EXPECT_TRUE(wanted.contains(std::string(root) + std::string(key)));
    for (std::string_view key : kRouterKeys) EXPECT_TRUE(wanted.contains(std::string(root) + std::string(key)));
  }
}

TEST(CardKeyIndex, LargeModelsAreMatchedThroughTheExactIndex) {
  // Past the pattern-scan limit (4,096 tensors) only names as written are matched.
  std::vector<T> t = {{"model.embed_tokens.weight", {32000, 512}}};
  for (int i = 0; t.size() < 5000; ++i) {
    const std::string p = "model.layers." + std::to_string(i) + ".";
    for (const char* k : {"self_attn.q_proj.weight", "self_attn.k_proj.weight", "mlp.gate_proj.weight",
                          "mlp.up_proj.weight", "input_layernorm.weight"}) {
      t.push_back({p + k, {512, 512}});
    }
  }
  const ModelCard card = card_of(t);
  EXPECT_EQ(family_id(card), "llama");
  EXPECT_EQ(card.architecture.layers, 1000);
  EXPECT_EQ(card.architecture.vocab_size, 32000);
  EXPECT_EQ(card.architecture.hidden_size, 512);
}

}  // namespace
}  // namespace safetensors::testing
