// Adapter layouts seen in files from the wild, each on a minimal header: MLX, diffusers'
// textual inversion and attention processors, LoRA-ViT, PEFT's prefix before the family rules,
// its modules_to_save copies (never targets: the trained copy stands for its module), and targets named as a LoRA
// config names them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "adapter/adapter_check.h"
#include "adapter/adapter_modules.h"
#include "card_test_support.h"

namespace safetensors::testing {
namespace {

using Names = std::vector<std::string>;

// PEFT's save of a LoRA on `module` of layer 0 and 1 (lora_A [r, in], lora_B [out, r]).
std::vector<T> peft(const std::string& module, std::uint64_t in, std::uint64_t out, std::uint64_t r = 8) {
  std::vector<T> t;
  for (const char* layer : {"0", "1"}) {
    const std::string m = "base_model.model." + std::string(module).replace(module.find('#'), 1, layer);
    t.push_back({m + ".lora_A.weight", {r, in}});
    t.push_back({m + ".lora_B.weight", {out, r}});
  }
  return t;
}

TEST(CardWildLayouts, MlxLoraIsInRankOut) {
  // mlx_lm tuner/lora.py: lora_a [in, r], lora_b [r, out]; {"format": "mlx"} or no metadata.
  const ModelCard card = card_of({{"model.layers.14.self_attn.q_proj.lora_a", {2048, 8}},
                                  {"model.layers.14.self_attn.q_proj.lora_b", {8, 2048}},
                                  {"model.layers.14.self_attn.v_proj.lora_a", {2048, 8}},
                                  {"model.layers.14.self_attn.v_proj.lora_b", {8, 256}}});
  EXPECT_EQ(card.kind, CardKind::Adapter);
  ASSERT_TRUE(card.adapter);
  EXPECT_EQ(card.adapter->type, "lora");
  EXPECT_EQ(card.adapter->format, "mlx");
  EXPECT_EQ(card.adapter->rank, 8);
  EXPECT_EQ(card.adapter->targets, (Names{"q_proj", "v_proj"}));
}

TEST(CardWildLayouts, DiffusersTextualInversionNamesItsToken) {
  const ModelCard card = card_of({{"<detail-schemas>", {1, 768}, Dtype::F32}}, {{"format", "pt"}});
  EXPECT_EQ(card.kind, CardKind::Embedding);
  EXPECT_EQ(family_id(card), "sd1");
  ASSERT_FALSE(card.trigger_words.empty());
  EXPECT_EQ(card.trigger_words.front().text, "<detail-schemas>");
  // A lone tensor of another width, or without the brackets, is not one.
  EXPECT_NE(card_of({{"<x>", {1, 5}}}).kind, CardKind::Embedding);
  EXPECT_NE(card_of({{"weight", {1, 768}}}).kind, CardKind::Embedding);
}

TEST(CardWildLayouts, OldDiffusersProcessorsKeepRankTargetsAndFamily) {
  const std::string b = "down_blocks.0.attentions.0.transformer_blocks.0.attn2.processor.";
  const ModelCard card = card_of({{b + "to_k_lora.down.weight", {4, 768}},
                                  {b + "to_k_lora.up.weight", {320, 4}},
                                  {b + "to_out_lora.down.weight", {4, 320}},
                                  {b + "to_out_lora.up.weight", {320, 4}}});
  ASSERT_TRUE(card.adapter);
  EXPECT_EQ(card.adapter->format, "diffusers");
  EXPECT_EQ(card.adapter->rank, 4);
  EXPECT_EQ(card.adapter->targets, (Names{"to_k", "to_out.0"}));
  EXPECT_EQ(family_id(card), "sd1");
}

TEST(CardWildLayouts, UnetPrefixedDiffusersLoraNamesItsModules) {
  const std::string b = "unet.down_blocks.0.attentions.0.transformer_blocks.0.attn2.";
  const ModelCard card = card_of({{b + "to_k.lora.down.weight", {4, 1024}},
                                  {b + "to_k.lora.up.weight", {320, 4}},
                                  {b + "to_out.0.lora.down.weight", {4, 320}},
                                  {b + "to_out.0.lora.up.weight", {320, 4}}});
  EXPECT_EQ(card.adapter->targets, (Names{"to_k", "to_out.0"}));
  EXPECT_EQ(family_id(card), "sd2");
}

TEST(CardWildLayouts, FamilyRulesFireOnPeftPrefixedKeys) {
  struct Case {
    std::vector<T> tensors;
    const char* family;
    Names targets;
  };
  const std::vector<Case> cases = {
      {peft("transformer.h.#.attn.c_attn", 768, 2304), "gpt2", {"c_attn"}},
      {peft("transformer.h.#.self_attention.query_key_value", 1024, 3072), "bloom", {"query_key_value"}},
      {peft("transformer.h.#.self_attention.query_key_value", 4544, 4672), "falcon", {"query_key_value"}},
      {peft("gpt_neox.layers.#.attention.query_key_value", 512, 1536), "gpt-neox", {"query_key_value"}},
      {peft("transformer.h.#.attn.attention.q_proj", 768, 768), "gpt-neo", {"q_proj"}},
      {peft("bert.encoder.layer.#.attention.self.query", 768, 768), "bert", {"query"}},
      {peft("distilbert.transformer.layer.#.attention.q_lin", 768, 768), "distilbert", {"q_lin"}},
      {peft("encoder.block.#.layer.0.SelfAttention.q", 512, 512), "t5", {"q"}},
      {peft("vit.encoder.layer.#.attention.attention.query", 768, 768), "vit", {"query"}},
      {peft("model.decoder.layers.#.self_attn.q_proj", 768, 768), "opt", {"q_proj"}},
  };
  for (const Case& c : cases) {
    const ModelCard card = card_of(c.tensors);
    EXPECT_EQ(family_id(card), c.family) << c.tensors.front().name;
    ASSERT_TRUE(card.adapter);
    EXPECT_EQ(card.adapter->format, "peft");
    EXPECT_EQ(card.adapter->targets, c.targets) << c.family;
  }
  // Whisper's or BART's decoder beside an encoder: not OPT (the keys alone cannot tell which).
  std::vector<T> seq2seq = peft("model.decoder.layers.#.self_attn.q_proj", 768, 768);
  for (const T& t : peft("model.encoder.layers.#.self_attn.q_proj", 768, 768)) seq2seq.push_back(t);
  EXPECT_EQ(family_id(card_of(seq2seq)), "none");
}

TEST(CardWildLayouts, KohyaLoraOnSsd1bByTheBlocksItHas) {
  // kohya names SDXL's (and SSD-1B's) UNet blocks as the checkpoint does; SSD-1B keeps 4 of the
  // 10 transformer blocks of input_blocks.7.1.
  const auto lora = [](std::size_t depth) {
    std::vector<T> t = {{"lora_unet_input_blocks_4_1_transformer_blocks_0_attn2_to_k.lora_down.weight", {8, 2048}},
                        {"lora_unet_input_blocks_4_1_transformer_blocks_0_attn2_to_k.lora_up.weight", {640, 8}}};
    for (std::size_t b = 0; b < depth; ++b) {
      const std::string m = "lora_unet_input_blocks_7_1_transformer_blocks_" + std::to_string(b) + "_attn1_to_q";
      t.push_back({m + ".lora_down.weight", {8, 1280}});
      t.push_back({m + ".lora_up.weight", {1280, 8}});
    }
    return card_of(t, {{"ss_network_module", "networks.lora"}});
  };
  EXPECT_EQ(family_id(lora(4)), "ssd-1b");
  EXPECT_EQ(family_id(lora(10)), "sdxl");
  EXPECT_EQ(lora(4).adapter->targets, (Names{"unet"}));
}

TEST(CardWildLayouts, ModulesToSaveCopiesAreNotTargets) {
  // A LoRA inside a modules_to_save head: the trained copy stands for classifier.dense, the
  // frozen original is left out; the head's plain weights are no adapter parts.
  std::vector<T> t = peft("bert.encoder.layer.#.attention.self.query", 768, 768);
  for (const char* copy : {"original_module", "modules_to_save.default"}) {
    const std::string m = std::string("base_model.model.classifier.") + copy + ".dense";
    t.push_back({m + ".lora_A.weight", {8, 768}});
    t.push_back({m + ".lora_B.weight", {768, 8}});
  }
  t.push_back({"base_model.model.classifier.weight", {2, 768}});
  const ModelCard card = card_of(t);
  EXPECT_EQ(card.adapter->targets, (Names{"query", "dense"}));
  EXPECT_EQ(family_id(card), "bert");
}

// A PEFT adapter whose only LoRA is on DistilBERT's classifier, itself in modules_to_save (as
// task_type SEQ_CLS puts it): PEFT's save drops the adapter's name from the keys
// ("classifier.modules_to_save.lora_A.weight"); a raw state_dict keeps it (".default").
std::vector<T> classifier_only(const std::string& adapter_name) {
  const std::string head = "base_model.model.classifier.";
  const std::string trained = head + "modules_to_save" + adapter_name + ".";
  return {{head + "original_module.lora_A.weight", {8, 768}},
          {head + "original_module.lora_B.weight", {2, 8}},
          {trained + "base_layer.bias", {2}},
          {trained + "base_layer.weight", {2, 768}},
          {trained + "lora_A.weight", {8, 768}},
          {trained + "lora_B.weight", {2, 8}}};
}

TEST(CardWildLayouts, ClassifierOnlyAdapterTargetsTheClassifier) {
  for (const char* adapter_name : {"", ".default"}) {
    const ModelCard card = card_of(classifier_only(adapter_name));
    ASSERT_TRUE(card.adapter) << adapter_name;
    EXPECT_EQ(card.adapter->format, "peft");
    EXPECT_EQ(card.adapter->rank, 8);
    EXPECT_EQ(card.adapter->targets, (Names{"classifier"})) << adapter_name;
  }
  // modules_to_save copies saved whole beside a LoRA (no LoRA inside them): the LoRA's targets only.
  std::vector<T> t = peft("distilbert.transformer.layer.#.attention.q_lin", 768, 768);
  for (const char* copy : {"modules_to_save.default", "original_module"})
    for (const char* w : {".weight", ".bias"})
      t.push_back({std::string("base_model.model.pre_classifier.") + copy + w, {768, 768}});
  EXPECT_EQ(card_of(t).adapter->targets, (Names{"q_lin"}));
}

TEST(CardWildLayouts, ClassifierOnlyAdapterFitsItsClassifier) {
  const Report adapter = report_of(classifier_only(""));
  const auto check = [&](const std::vector<T>& base) {
    const Report b = report_of(base);
    return check_adapter(views_of(adapter.tensors), adapter.metadata, views_of(b.tensors));
  };
  // DistilBertForSequenceClassification (2 labels): the classifier is there, of the LoRA's shape.
  const AdapterCheck fits = check({{"classifier.weight", {2, 768}}, {"pre_classifier.weight", {768, 768}}});
  EXPECT_TRUE(fits.compatible());
  EXPECT_EQ(fits.matched, 1u);
  const AdapterCheck three_labels = check({{"classifier.weight", {3, 768}}});
  ASSERT_EQ(three_labels.unmatched.size(), 1u);
  EXPECT_EQ(three_labels.unmatched[0].key, "base_model.model.classifier.modules_to_save");
}

TEST(CardWildLayouts, LoraVitPairs) {
  // JamesQFreeman/LoRA-ViT's save_lora_parameters: w_a_000 [r, in], w_b_000 [out, r], ...
  const ModelCard card =
      card_of({{"w_a_000", {8, 768}}, {"w_a_001", {8, 768}}, {"w_b_000", {768, 8}}, {"w_b_001", {768, 8}}});
  EXPECT_EQ(card.kind, CardKind::Adapter);
  EXPECT_EQ(card.adapter->format, "lora-vit");
  EXPECT_EQ(card.adapter->rank, 8);
  EXPECT_EQ(card_of({{"w_a_000", {8, 768}}, {"w_c_000", {768, 8}}}).kind, CardKind::Unknown);
}

TEST(CardWildLayouts, ModuleNames) {
  EXPECT_EQ(base_module("base_model.model.model.layers.0.self_attn.q_proj"), "model.layers.0.self_attn.q_proj");
  EXPECT_EQ(base_module("mid_block.attentions.0.transformer_blocks.0.attn1.processor.to_out"),
            "mid_block.attentions.0.transformer_blocks.0.attn1.to_out.0");
  EXPECT_EQ(target_name("unet.mid_block.attentions.0.transformer_blocks.0.attn1.to_out.0"), "to_out.0");
  EXPECT_EQ(target_name("transformer.h.0.attn.c_attn"), "c_attn");
  EXPECT_EQ(target_name("fc1"), "fc1");
  EXPECT_EQ(base_module("base_model.model.score.modules_to_save.dense"), "score.dense");
  EXPECT_EQ(base_module("base_model.model.score.modules_to_save.default"), "score");
  EXPECT_EQ(base_module("base_model.model.score.modules_to_save_x.dense"), "score.modules_to_save_x.dense");
  EXPECT_TRUE(in_frozen_copy("base_model.model.score.original_module.dense"));
  EXPECT_TRUE(in_frozen_copy("base_model.model.score.original_module"));
  EXPECT_FALSE(in_frozen_copy("base_model.model.score.original_modules"));
  EXPECT_FALSE(in_frozen_copy("base_model.model.score.dense"));
}

}  // namespace
}  // namespace safetensors::testing
