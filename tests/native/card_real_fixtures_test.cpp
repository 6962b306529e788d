// The card of real files written by other tools (../shared/fixtures/real), and its JSON form.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <vector>

#include "card/card_json.h"
#include "card/json_writer.h"
#include "card_test_support.h"
#include "file_builder.h"
#include "fixture_dir.h"
#include "simdjson.h"

namespace safetensors::testing {
namespace {

namespace fs = std::filesystem;

class RealCards : public ::testing::Test {
 protected:
  void SetUp() override { REQUIRE_FIXTURE_DIR(dir_); }
  Report report(const char* file) {
    std::ifstream in(dir_ / file, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    Report r = analyze(bytes);
    EXPECT_EQ(r.error, ReferenceError::None);
    return r;
  }
  ModelCard card(const char* file) { return build_card(report(file)); }
  const fs::path dir_ = real_fixtures_dir();
};

// An SD 1.x LyCORIS LoKr trained with kohya's sd-scripts on "smart falcon (umamusume)".
TEST_F(RealCards, KohyaLycorisLokr) {
  const Report r = report("kohya_lycoris_lokr_dim4_f16.safetensors");
  const ModelCard c = build_card(r);
  EXPECT_EQ(c.kind, CardKind::Adapter);
  ASSERT_TRUE(c.adapter);
  EXPECT_EQ(c.adapter->type, "lokr");
  EXPECT_EQ(c.adapter->format, "kohya");
  EXPECT_EQ(c.adapter->network_module, "lycoris.kohya");
  EXPECT_EQ(c.adapter->rank, 4);
  EXPECT_EQ(c.adapter->alpha, 4);
  EXPECT_EQ(c.adapter->targets, (std::vector<std::string>{"text_encoder", "unet"}));
  ASSERT_TRUE(c.family);
  EXPECT_EQ(c.family->id, "sd1");
  EXPECT_EQ(c.title, "smart_falcon_lokr_3.0e-4");
  ASSERT_FALSE(c.trigger_words.empty());
  EXPECT_EQ(c.trigger_words[0].text, "smart falcon \\(umamusume\\)");
  EXPECT_EQ(c.trigger_words[0].source, "ss_training_comment");
  EXPECT_EQ(c.tags[0].tag, "smart falcon \\(umamusume\\)");
  EXPECT_EQ(c.trigger_words[0].count, c.tags[0].count);
  ASSERT_TRUE(c.base_model);
  EXPECT_EQ(c.base_model->name, "animefull-final-pruned.safetensors");
  EXPECT_EQ(c.base_model->hash, "7548b773903c5a5effd63afa2a066e472d5c94aed77a107f16dae20f609e240b");
  EXPECT_EQ(c.base_model->version, "sd_v1");
  ASSERT_TRUE(c.training);
  EXPECT_EQ(c.date, "2023-04-05T19:01:47Z");
  EXPECT_EQ(c.embedded_hashes.front().key, "sshs_model_hash");
  EXPECT_EQ(c.parameters.by_dtype.size(), 1u);
  EXPECT_TRUE(c.kohya_module_names);
  const ModuleTree tree = module_tree(r.tensors, c.kohya_module_names);  // split as the card says
  EXPECT_EQ(tree.nodes[0].tensors, 1750);
  std::vector<std::string> top;
  for (const ModuleNode& n : tree.nodes) {
    if (&n != &tree.nodes[0] && n.parent == 0) top.push_back(n.name);
  }
  EXPECT_EQ(top, (std::vector<std::string>{"lora_te", "lora_unet"}));
}

TEST_F(RealCards, TransformersGpt2) {
  const ModelCard c = card("transformers_gpt2_tiny_f32.safetensors");
  EXPECT_EQ(c.kind, CardKind::Model);
  ASSERT_TRUE(c.family);
  EXPECT_EQ(c.family->id, "gpt2");
  EXPECT_EQ(c.architecture.layers, 4);
  EXPECT_EQ(c.architecture.hidden_size, 64);
  EXPECT_EQ(c.architecture.vocab_size, 53);
}

// torchtune's tiny Gemma (1) in the Hugging Face layout: Gemma 1 has Llama's keys exactly,
// and this tiny one lacks Gemma's 256,000-token vocabulary, so the header can only tell
// "Llama-like".
TEST_F(RealCards, TorchtuneGemmaIsLlamaLike) {
  const ModelCard c = card("torchtune_gemma_hf_layout_f16.safetensors");
  EXPECT_EQ(c.kind, CardKind::Model);
  ASSERT_TRUE(c.family);
  EXPECT_EQ(c.family->id, "llama");
  EXPECT_EQ(c.architecture.hidden_size, 64);
  EXPECT_EQ(c.architecture.vocab_size, 100);
  EXPECT_EQ(c.architecture.layers, 1);
}

TEST_F(RealCards, TestFilesAreUnknown) {
  const ModelCard c = card("fluxml_torch_all_dtypes_with_metadata.safetensors");
  EXPECT_EQ(c.kind, CardKind::Unknown);
  EXPECT_EQ(c.parameters.by_dtype.size(), 12u);
}

TEST_F(RealCards, JsonParsesAndCarriesTheFields) {
  const ModelCard c = card("kohya_lycoris_lokr_dim4_f16.safetensors");
  std::string json;
  write_card_json(c, json);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS);
  const auto text = [](simdjson::simdjson_result<simdjson::dom::element> e) {
    std::string_view s;
    return e.get(s) == simdjson::SUCCESS ? s : "(not a string)";
  };
  const auto number = [](simdjson::simdjson_result<simdjson::dom::element> e) {
    double v = -1;
    return e.get(v) == simdjson::SUCCESS ? v : -1;
  };
  EXPECT_EQ(text(doc["kind"]), "adapter");
  EXPECT_EQ(text(doc["family"]["id"]), "sd1");
  EXPECT_EQ(number(doc["adapter"]["rank"]), 4);
  EXPECT_EQ(text(doc["triggerWords"].at(0)["text"]), "smart falcon \\(umamusume\\)");
  EXPECT_EQ(number(doc["training"]["learning_rate"]), 0.0003);
  bool v2 = true;
  EXPECT_EQ(doc["training"]["v2"].get(v2), simdjson::SUCCESS);
  EXPECT_FALSE(v2);
  simdjson::dom::element clip_skip;
  ASSERT_EQ(doc["training"]["clip_skip"].get(clip_skip), simdjson::SUCCESS);
  EXPECT_TRUE(clip_skip.is_null());
}

}  // namespace

TEST(CardJson, StringsEscapedAsJson) {
  std::string out;
  write_json_string(std::string("a\"b\\c\n\x01</script>\xC3\xA9", 18), out);
  EXPECT_EQ(out, "\"a\\\"b\\\\c\\n\\u0001</script>\xC3\xA9\"");
}

// Every number of a card reads back (strtod, as JSON.parse) as the same double; integers below
// 9e15 are written as integers; NaN and infinities as null.
TEST(CardJson, NumbersReadBackAsTheSameDouble) {
  std::vector<double> values = {0.1,
                                0.0003,
                                -2.5,
                                1e-7,
                                1e21,
                                9e15,
                                1.7976931348623157e308,
                                5e-324,
                                -0.0,
                                1.0 / 3,
                                123.45,
                                2.2250738585072014e-308,
                                4.35,
                                9007199254740993.0};
  std::mt19937_64 random(37);
  while (values.size() < 20000) {
    const std::uint64_t bits = random();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    if (std::isfinite(v)) values.push_back(v);
  }
  for (double v : values) {
    std::string out;
    Json(out).number(v);
    const double back = std::strtod(out.c_str(), nullptr);
    EXPECT_EQ(back, v) << out;  // -0 is written 0, as before
  }
  std::string out;
  Json j(out);
  j.begin_array();
  for (double v : {3.0, -42.0, 8999999999999999.0, std::nan(""), HUGE_VAL, -HUGE_VAL}) j.number(v);
  j.end_array();
  EXPECT_EQ(out, "[3,-42,8999999999999999,null,null,null]");
}

}  // namespace safetensors::testing
