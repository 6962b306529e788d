// The header table as the card module holds it (cpp/wasm/decoded_header_table.h): the card and
// the module tree come out as they do from the analysis, and the table is decoded only once.
#include <gtest/gtest.h>

#include <cstring>
#include <span>
#include <vector>

#include "card/build_card.h"
#include "file_builder.h"
#include "tree/module_tree.h"
#include "wasm/card_table.h"
#include "wasm/decoded_header_table.h"

namespace safetensors::testing {
namespace {

// A kohya-named adapter: its tree splits at '_' (the card table says so).
Report kohya_report() {
  std::string header = "{\"__metadata__\":{\"ss_network_module\":\"networks.lora\",\"sshs_model_hash\":\"ab12cd34\"}";
  const char* names[] = {"lora_unet_down_blocks_0_attentions_0_proj_in.lora_down.weight",
                         "lora_unet_down_blocks_0_attentions_0_proj_in.lora_up.weight",
                         "lora_unet_down_blocks_0_attentions_0_proj_in.alpha",
                         "lora_te_text_model_encoder_layers_0_mlp_fc1.lora_down.weight",
                         "lora_te_text_model_encoder_layers_0_mlp_fc1.lora_up.weight"};
  std::uint64_t at = 0;
  for (const char* name : names) {
    const bool alpha = std::string_view(name).ends_with(".alpha");
    header += "," + entry(name, "F16", alpha ? "[]" : "[4,4]", at, at + (alpha ? 2 : 32));
    at += alpha ? 2 : 32;
  }
  const Report report = analyze(make_file(header + "}", at));
  EXPECT_EQ(report.error, ReferenceError::None);
  return report;
}

// The table written into a DecodedHeaderTable, as JS does through bytes().
void write(DecodedHeaderTable& held, std::span<const std::uint8_t> table) {
  ASSERT_NE(held.bytes(), nullptr);
  std::memcpy(held.bytes(), table.data(), table.size());
}

TEST(DecodedHeaderTable, GivesTheCardAndTheTreeTheAnalysisGives) {
  const Report report = kohya_report();
  std::vector<std::uint8_t> table, card, tree, expected_card, expected_tree;
  encode_header_table(report, table);
  const ModelCard built = build_card(report);
  ASSERT_TRUE(built.kohya_module_names);
  encode_card_table(built, expected_card);
  encode_module_tree_table(module_tree(views_of(report.tensors), true), expected_tree);

  DecodedHeaderTable held(table.size());
  write(held, table);
  ASSERT_TRUE(held.card_table(card));
  EXPECT_EQ(card, expected_card);
  ASSERT_TRUE(held.module_tree_table(true, tree));
  EXPECT_EQ(tree, expected_tree);
}

TEST(DecodedHeaderTable, DecodesTheTableOnlyOnce) {
  const Report report = kohya_report();
  std::vector<std::uint8_t> table, card, tree, expected_tree;
  encode_header_table(report, table);
  encode_module_tree_table(module_tree(views_of(report.tensors), true), expected_tree);
  DecodedHeaderTable held(table.size());
  write(held, table);
  ASSERT_TRUE(held.card_table(card));
  // The number count in the table's first bytes made wrong: reading the table again would
  // refuse it. The tree is built all the same, from what the card's read decoded.
  std::memset(held.bytes(), 0xFF, 4);
  ASSERT_TRUE(held.module_tree_table(true, tree));
  EXPECT_EQ(tree, expected_tree);
  // A table with that change, read for the first time, is refused.
  std::vector<std::uint8_t> changed = table, untouched = {7};
  std::memset(changed.data(), 0xFF, 4);
  DecodedHeaderTable fresh(changed.size());
  write(fresh, changed);
  EXPECT_FALSE(fresh.module_tree_table(true, untouched));
  EXPECT_EQ(untouched, std::vector<std::uint8_t>{7});
}

TEST(DecodedHeaderTable, RefusesWhatIsNotAHeaderTableEveryTime) {
  std::vector<std::uint8_t> rejected, out = {7};
  encode_header_table(analyze(make_file("{\"a\":1}")), rejected);
  rejected.resize(rejected.size() - 1);  // one byte short: no table
  DecodedHeaderTable held(rejected.size());
  write(held, rejected);
  EXPECT_FALSE(held.card_table(out));
  EXPECT_FALSE(held.module_tree_table(false, out));
  EXPECT_EQ(out, std::vector<std::uint8_t>{7});
  DecodedHeaderTable empty(0);  // no bytes at all
  EXPECT_FALSE(empty.card_table(out));
}

TEST(DecodedHeaderTable, TheTreeAloneNeedsNoCardFirst) {
  const Report report = analyze(make_file(
      "{" + entry("a.b.weight", "F32", "[2]", 0, 8) + "," + entry("a.c.weight", "F32", "[1]", 8, 12) + "}", 12));
  std::vector<std::uint8_t> table, tree, expected;
  encode_header_table(report, table);
  encode_module_tree_table(module_tree(views_of(report.tensors), false), expected);
  DecodedHeaderTable held(table.size());
  write(held, table);
  ASSERT_TRUE(held.module_tree_table(false, tree));
  EXPECT_EQ(tree, expected);
}

}  // namespace
}  // namespace safetensors::testing
