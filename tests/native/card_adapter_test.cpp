// Adapters and embeddings: each naming scheme on a crafted header with real key names.
#include <gtest/gtest.h>

#include "adapter/adapter_parts.h"
#include "card_test_support.h"

namespace safetensors::testing {
namespace {

// kohya LoRA modules as sd-scripts names them for SD 1.x (diffusers module paths, '_' for '.').
std::vector<T> kohya_sd1(std::uint64_t rank, std::uint64_t context = 768) {
  const std::string m = "lora_unet_down_blocks_0_attentions_0_transformer_blocks_0_attn2_to_k";
  const std::string te = "lora_te_text_model_encoder_layers_0_self_attn_q_proj";
  return {{m + ".alpha", {}},  {m + ".lora_down.weight", {rank, context}}, {m + ".lora_up.weight", {320, rank}},
          {te + ".alpha", {}}, {te + ".lora_down.weight", {rank, 768}},    {te + ".lora_up.weight", {768, rank}}};
}

TEST(CardAdapter, KohyaLoraWithFamilyFromTheCrossAttentionWidth) {
  const ModelCard card = card_of(kohya_sd1(8), {{"ss_network_module", "networks.lora"}, {"ss_network_alpha", "4.0"}});
  EXPECT_EQ(card.kind, CardKind::Adapter);
  ASSERT_TRUE(card.adapter);
  EXPECT_EQ(card.adapter->type, "lora");
  EXPECT_EQ(card.adapter->format, "kohya");
  EXPECT_EQ(card.adapter->rank, 8);
  EXPECT_EQ(card.adapter->alpha, 4);
  EXPECT_EQ(card.adapter->network_module, "networks.lora");
  EXPECT_EQ(card.adapter->targets, (std::vector<std::string>{"unet", "text_encoder"}));
  EXPECT_EQ(family_id(card), "sd1");
  EXPECT_EQ(card.family->evidence.front(),
            "lora_unet_down_blocks_0_attentions_0_transformer_blocks_0_attn2_to_k [320, 768]");
  EXPECT_EQ(family_id(card_of(kohya_sd1(8, 1024))), "sd2");
}

TEST(CardAdapter, AlphaUnknownPointsAtAnAlphaTensor) {
  const ModelCard card = card_of(kohya_sd1(4));
  ASSERT_TRUE(card.adapter);
  EXPECT_FALSE(card.adapter->alpha);
  EXPECT_EQ(card.adapter->alpha_tensor, "lora_unet_down_blocks_0_attentions_0_transformer_blocks_0_attn2_to_k.alpha");
  EXPECT_EQ(card.adapter->rank, 4);  // from the shapes
}

TEST(CardAdapter, KohyaSdxlAndFluxAndSd3ByModuleNames) {
  const ModelCard sdxl =
      card_of({{"lora_unet_input_blocks_4_1_transformer_blocks_0_attn2_to_k.lora_down.weight", {16, 2048}},
               {"lora_unet_input_blocks_4_1_transformer_blocks_0_attn2_to_k.lora_up.weight", {640, 16}},
               {"lora_te1_text_model_encoder_layers_0_mlp_fc1.lora_down.weight", {16, 768}},
               {"lora_te2_text_model_encoder_layers_0_mlp_fc1.lora_down.weight", {16, 1280}}});
  EXPECT_EQ(family_id(sdxl), "sdxl");
  EXPECT_EQ(sdxl.adapter->targets, (std::vector<std::string>{"unet", "text_encoder_1", "text_encoder_2"}));
  const ModelCard flux = card_of({{"lora_unet_double_blocks_0_img_attn_qkv.lora_down.weight", {16, 3072}},
                                  {"lora_unet_double_blocks_0_img_attn_qkv.lora_up.weight", {9216, 16}}},
                                 {{"ss_base_model_version", "flux1"}, {"ss_network_module", "networks.lora_flux"}});
  EXPECT_EQ(family_id(flux), "flux1");
  EXPECT_EQ(flux.family->variant, "");
  const ModelCard chroma = card_of({{"lora_unet_double_blocks_0_img_attn_qkv.lora_down.weight", {16, 3072}}},
                                   {{"ss_base_model_version", "chroma"}});
  EXPECT_EQ(family_id(chroma), "chroma");
  const ModelCard sd3 = card_of({{"lora_unet_joint_blocks_0_context_block_attn_qkv.lora_down.weight", {16, 1536}}});
  EXPECT_EQ(family_id(sd3), "sd3");
}

TEST(CardAdapter, LoconWhenConvolutionsAreAdapted) {
  std::vector<T> t = kohya_sd1(8);
  t.push_back({"lora_unet_down_blocks_0_resnets_0_conv1.lora_down.weight", {8, 320, 3, 3}});
  t.push_back({"lora_unet_down_blocks_0_resnets_0_conv1.lora_up.weight", {320, 8, 1, 1}});
  EXPECT_EQ(card_of(t).adapter->type, "locon");
}

TEST(CardAdapter, LycorisMethods) {
  const std::string m = "lora_unet_down_blocks_0_attentions_0_transformer_blocks_0_attn2_to_k";
  const ModelCard loha = card_of({{m + ".hada_w1_a", {320, 8}},
                                  {m + ".hada_w1_b", {8, 768}},
                                  {m + ".hada_w2_a", {320, 8}},
                                  {m + ".hada_w2_b", {8, 768}},
                                  {m + ".alpha", {}}});
  EXPECT_EQ(loha.adapter->type, "loha");
  EXPECT_EQ(loha.adapter->rank, 8);
  EXPECT_EQ(family_id(loha), "sd1");
  // LoKr: the weight is the Kronecker product, so sizes multiply: [20*16, 32*24] = [320, 768].
  const ModelCard lokr = card_of({{m + ".lokr_w1_a", {20, 4}},
                                  {m + ".lokr_w1_b", {4, 32}},
                                  {m + ".lokr_w2_a", {16, 4}},
                                  {m + ".lokr_w2_b", {4, 24}},
                                  {m + ".alpha", {}}});
  EXPECT_EQ(lokr.adapter->type, "lokr");
  EXPECT_EQ(lokr.adapter->rank, 4);
  EXPECT_EQ(family_id(lokr), "sd1");
  const ModelCard dora =
      card_of({{m + ".lora_down.weight", {8, 768}}, {m + ".lora_up.weight", {320, 8}}, {m + ".dora_scale", {1, 768}}});
  EXPECT_EQ(dora.adapter->type, "dora");
  EXPECT_EQ(family_id(dora), "sd1");
  const ModelCard glora = card_of({{m + ".a1.weight", {8, 768}},
                                   {m + ".a2.weight", {320, 8}},
                                   {m + ".b1.weight", {8, 768}},
                                   {m + ".b2.weight", {320, 8}}});
  EXPECT_EQ(glora.adapter->type, "glora");
  const ModelCard oft = card_of({{m + ".oft_blocks", {4, 80, 80}}, {m + ".alpha", {}}});
  EXPECT_EQ(oft.adapter->type, "oft");
  const ModelCard diff = card_of({{m + ".diff", {320, 768}}, {m + ".diff_b", {320}}});
  EXPECT_EQ(diff.adapter->type, "diff");
  EXPECT_EQ(family_id(diff), "sd1");
}

TEST(CardAdapter, PeftLanguageModelAdapter) {
  const std::string p = "base_model.model.model.layers.0.";
  const ModelCard card = card_of({{p + "self_attn.q_proj.lora_A.weight", {16, 4096}},
                                  {p + "self_attn.q_proj.lora_B.weight", {4096, 16}},
                                  {p + "self_attn.v_proj.lora_A.weight", {16, 4096}},
                                  {p + "self_attn.v_proj.lora_B.weight", {1024, 16}},
                                  {p + "mlp.gate_proj.lora_A.weight", {16, 4096}},
                                  {p + "mlp.gate_proj.lora_B.weight", {14336, 16}}});
  EXPECT_EQ(card.kind, CardKind::Adapter);
  EXPECT_EQ(card.adapter->format, "peft");
  EXPECT_EQ(card.adapter->rank, 16);
  EXPECT_EQ(card.adapter->targets, (std::vector<std::string>{"q_proj", "v_proj", "gate_proj"}));
  EXPECT_EQ(family_id(card), "llama");
}

TEST(CardAdapter, DiffusersLoraWithItsConfig) {
  const ModelCard card =
      card_of({{"transformer.single_transformer_blocks.0.attn.to_k.lora_A.weight", {4, 3072}},
               {"transformer.single_transformer_blocks.0.attn.to_k.lora_B.weight", {3072, 4}}},
              {{"format", "pt"}, {"lora_adapter_metadata", "{\n  \"lora_alpha\": 8,\n  \"r\": 4\n}"}});
  EXPECT_EQ(card.adapter->format, "diffusers");
  EXPECT_EQ(card.adapter->alpha, 8);
  EXPECT_EQ(card.adapter->rank, 4);
  EXPECT_EQ(card.adapter->targets, (std::vector<std::string>{"to_k"}));  // as a LoraConfig names it
  EXPECT_EQ(family_id(card), "flux1");
  const ModelCard unet =
      card_of({{"unet.down_blocks.1.attentions.0.transformer_blocks.0.attn2.to_k.lora.down.weight", {4, 2048}},
               {"unet.down_blocks.1.attentions.0.transformer_blocks.0.attn2.to_k.lora.up.weight", {640, 4}}});
  EXPECT_EQ(family_id(unet), "sdxl");
}

TEST(CardAdapter, LoraDiffusionWithEmbeddedTokens) {
  // cloneofsimo/lora save_safetensors: "<name>:<i>:up/down", tokens stored as tensors, "<embed>" in metadata.
  const ModelCard card = card_of({{"unet:0:up", {320, 4}},
                                  {"unet:0:down", {4, 320}},
                                  {"text_encoder:0:up", {768, 4}},
                                  {"text_encoder:0:down", {4, 768}},
                                  {"<s1>", {768}},
                                  {"<s2>", {768}}},
                                 {{"<s1>", "<embed>"}, {"<s2>", "<embed>"}, {"unet", "[\"CrossAttention\"]"}});
  EXPECT_EQ(card.kind, CardKind::Adapter);
  EXPECT_EQ(card.adapter->format, "lora_diffusion");
  EXPECT_EQ(card.adapter->rank, 4);
  EXPECT_EQ(card.adapter->targets, (std::vector<std::string>{"unet", "text_encoder"}));
  EXPECT_EQ(family_id(card), "sd1");
  ASSERT_EQ(card.trigger_words.size(), 2u);
  EXPECT_EQ(card.trigger_words[0].text, "<s1>");
  EXPECT_EQ(card.trigger_words[0].source, "embedded token");
}

TEST(CardAdapter, TextualInversions) {
  const ModelCard a1111 = card_of({{"emb_params", {4, 768}}});
  EXPECT_EQ(a1111.kind, CardKind::Embedding);
  EXPECT_EQ(family_id(a1111), "sd1");
  const ModelCard sd2 = card_of({{"string_to_param.*", {2, 1024}}});
  EXPECT_EQ(sd2.kind, CardKind::Embedding);
  EXPECT_EQ(family_id(sd2), "sd2");
  const ModelCard sdxl = card_of({{"clip_l", {8, 768}}, {"clip_g", {8, 1280}}});
  EXPECT_EQ(sdxl.kind, CardKind::Embedding);
  EXPECT_EQ(family_id(sdxl), "sdxl");
}

TEST(CardAdapter, AnEmbeddingCountsItsVectorsAndTheirWidth) {
  const ModelCard a1111 = card_of({{"string_to_param.*", {5, 768}}});
  ASSERT_TRUE(a1111.embedding);
  EXPECT_EQ(a1111.embedding->vectors, 5);
  EXPECT_EQ(a1111.embedding->width, 768);
  // SDXL: clip_g and clip_l hold the same tokens; clip_g's width comes first.
  const ModelCard sdxl = card_of({{"clip_l", {8, 768}}, {"clip_g", {8, 1280}}});
  ASSERT_TRUE(sdxl.embedding);
  EXPECT_EQ(sdxl.embedding->vectors, 8);
  EXPECT_EQ(sdxl.embedding->width, 1280);
  const ModelCard one = card_of({{"emb_params", {1024}}});
  ASSERT_TRUE(one.embedding);
  EXPECT_EQ(one.embedding->vectors, 1);
  EXPECT_EQ(one.embedding->width, 1024);
  EXPECT_FALSE(card_of({{"model.norm.weight", {64}}}).embedding);
}

TEST(CardAdapter, AFewAdapterLikeNamesDoNotMakeAModelAnAdapter) {
  std::vector<T> t = {{"model.layers.0.self_attn.q_proj.weight", {64, 64}},
                      {"model.layers.0.mlp.gate_proj.weight", {256, 64}},
                      {"model.layers.0.mlp.up_proj.weight", {256, 64}},
                      {"model.norm.weight", {64}},
                      {"extra.lora_down.weight", {4, 64}}};
  const ModelCard card = card_of(t);
  EXPECT_EQ(card.kind, CardKind::Model);
  EXPECT_FALSE(card.adapter);
}

TEST(CardAdapter, HalfTheTensorsAsPartsIsTheBoundary) {
  // The scan stops once parts can no longer be half; exactly half must still count.
  std::vector<T> t = {{"m.lora_down.weight", {4, 8}}, {"m.lora_up.weight", {8, 4}}, {"q", {1}}, {"r", {1}}};
  EXPECT_EQ(card_of(t).kind, CardKind::Adapter);
  t.push_back({"s", {1}});
  EXPECT_NE(card_of(t).kind, CardKind::Adapter);
  // Parts after the non-parts: the scan must not stop before it reaches them.
  const ModelCard late =
      card_of({{"q", {1}}, {"r", {1}}, {"m.lora_down.weight", {4, 8}}, {"m.lora_up.weight", {8, 4}}});
  EXPECT_EQ(late.kind, CardKind::Adapter);
}

TEST(CardAdapter, EmbeddedTokensAreTriggerWordsEvenWhenMostTensorsAreNotParts) {
  // With "<embed>" in the metadata the lora_diffusion scan reads every name.
  const ModelCard card =
      card_of({{"a.weight", {2}}, {"b.weight", {2}}, {"c.weight", {2}}, {"<s1>", {768}}}, {{"<s1>", "<embed>"}});
  EXPECT_NE(card.kind, CardKind::Adapter);
  ASSERT_EQ(card.trigger_words.size(), 1u);
  EXPECT_EQ(card.trigger_words[0].text, "<s1>");
}

TEST(CardAdapter, EverySuffixIsFoundAndNearMissesAreNot) {
  for (const AdapterPart& part : kAdapterParts) {
    if (part.type.empty()) continue;  // ".alpha" alone names no method
    const std::string name = "lora_unet_block_0_proj" + std::string(part.suffix);
    const ModelCard card = card_of({{name, {4, 8}}});
    ASSERT_EQ(card.kind, CardKind::Adapter) << name;
    EXPECT_EQ(card.adapter->type, part.type) << name;
    // One character changed before the last: no longer a part.
    std::string near = name;
    near[near.size() - 2] = near[near.size() - 2] == 'x' ? 'y' : 'x';
    EXPECT_NE(card_of({{near, {4, 8}}}).kind, CardKind::Adapter) << near;
    // The suffix alone, with no module before it, is no part either.
    EXPECT_NE(card_of({{std::string(part.suffix), {4, 8}}}).kind, CardKind::Adapter) << part.suffix;
  }
}

}  // namespace
}  // namespace safetensors::testing
