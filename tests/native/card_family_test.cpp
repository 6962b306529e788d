// Family rules: one crafted header per family, with key names and shapes as real files
// write them (ComfyUI's and llama.cpp's detection keys, see cpp/card/family_rules.h).
#include <gtest/gtest.h>

#include <set>

#include "card/family_rules.h"
#include "card_test_support.h"

namespace safetensors::testing {
namespace {

struct Case {
  const char* id;
  const char* variant;
  std::vector<T> tensors;
};

// SD UNets: conv_in plus the cross-attention key of the first transformer block.
std::vector<T> unet(const std::string& prefix, std::uint64_t context, const char* block = "input_blocks.1.1") {
  return {{prefix + "input_blocks.0.0.weight", {320, 4, 3, 3}},
          {prefix + block + ".transformer_blocks.0.attn2.to_k.weight", {320, context}},
          {prefix + block + ".transformer_blocks.0.attn2.to_v.weight", {320, context}}};
}

std::vector<T> llama_layer(const std::string& p, std::vector<T> extra = {}) {
  std::vector<T> t = {{"model.embed_tokens.weight", {32000, 4096}},
                      {p + "self_attn.q_proj.weight", {4096, 4096}},
                      {p + "self_attn.k_proj.weight", {1024, 4096}},
                      {p + "mlp.gate_proj.weight", {14336, 4096}},
                      {p + "mlp.down_proj.weight", {4096, 14336}}};
  t.insert(t.end(), extra.begin(), extra.end());
  return t;
}

// An SDXL UNet distilled to `depth` transformer blocks in its 1280-wide level (ComfyUI's SSD1B
// and Segmind_Vega, transformer_depth [0, 0, 2, 2, 4, 4] and [0, 0, 1, 1, 2, 2]).
std::vector<T> distilled_sdxl(std::size_t depth) {
  std::vector<T> t = unet("model.diffusion_model.", 2048, "input_blocks.4.1");
  for (std::size_t b = 0; b < depth; ++b)
    t.push_back(
        {"model.diffusion_model.input_blocks.7.1.transformer_blocks." + std::to_string(b) + ".attn1.to_q.weight",
         {1280, 1280}});
  return t;
}

// transformers' CLIPTextModel of the given width.
std::vector<T> clip_text(std::uint64_t width) {
  return {{"text_model.embeddings.token_embedding.weight", {49408, width}},
          {"text_model.encoder.layers.0.self_attn.q_proj.weight", {width, width}},
          {"text_model.final_layer_norm.weight", {width}}};
}

std::vector<Case> cases() {
  const std::string L0 = "model.layers.0.";
  return {
      {"sd1", "", unet("model.diffusion_model.", 768)},
      {"sd2", "", unet("model.diffusion_model.", 1024)},
      {"sdxl", "", unet("model.diffusion_model.", 2048, "input_blocks.4.1")},
      {"sdxl-refiner", "", unet("model.diffusion_model.", 1280, "input_blocks.4.1")},
      {"sd1",
       "",
       {{"down_blocks.0.attentions.0.transformer_blocks.0.attn2.to_k.weight", {320, 768}},
        {"conv_in.weight", {320, 4, 3, 3}}}},
      {"sdxl", "", {{"unet.down_blocks.1.attentions.0.transformer_blocks.0.attn2.to_k.weight", {640, 2048}}}},
      {"sd3",
       "",
       {{"model.diffusion_model.joint_blocks.0.context_block.attn.qkv.weight", {4608, 1536}},
        {"model.diffusion_model.x_embedder.proj.weight", {1536, 16, 2, 2}}}},
      {"sd3",
       "",
       {{"transformer_blocks.0.attn.add_q_proj.weight", {1536, 1536}}, {"pos_embed.proj.weight", {1536, 16, 2, 2}}}},
      {"flux1",
       "dev",
       {{"double_blocks.0.img_attn.norm.key_norm.scale", {128}},
        {"img_in.weight", {3072, 64}},
        {"guidance_in.in_layer.weight", {3072, 256}}}},
      {"flux1",
       "schnell",
       {{"model.diffusion_model.double_blocks.0.img_attn.norm.key_norm.scale", {128}},
        {"model.diffusion_model.img_in.weight", {3072, 64}}}},
      {"flux1",
       "dev",
       {{"single_transformer_blocks.0.attn.to_k.weight", {3072, 3072}},
        {"x_embedder.weight", {3072, 64}},
        {"time_text_embed.guidance_embedder.linear_1.weight", {3072, 256}}}},
      {"flux2",
       "",
       {{"double_blocks.0.img_attn.norm.key_norm.scale", {128}},
        {"double_stream_modulation_img.lin.weight", {18432, 3072}}}},
      {"chroma",
       "",
       {{"double_blocks.0.img_attn.norm.key_norm.scale", {128}},
        {"distilled_guidance_layer.in_proj.weight", {5120, 64}}}},
      {"auraflow", "", {{"double_layers.0.attn.w1q.weight", {3072, 3072}}}},
      {"pixart", "", {{"t_block.1.weight", {6912, 1152}}}},
      {"stable-cascade", "", {{"clf.1.weight", {64, 2048, 1, 1}}}},
      {"hunyuan-video", "", {{"txt_in.individual_token_refiner.blocks.0.norm1.weight", {3072}}}},
      {"ltxv", "", {{"adaln_single.emb.timestep_embedder.linear_1.bias", {2048}}}},
      {"wan", "", {{"head.modulation", {1, 2, 1536}}}},
      {"wan", "i2v", {{"head.modulation", {1, 2, 5120}}, {"img_emb.proj.0.bias", {1280}}}},
      {"lumina2", "", {{"cap_embedder.1.weight", {2304, 2304}}}},
      {"qwen-image", "", {{"txt_norm.weight", {3584}}}},
      {"hidream", "", {{"caption_projection.0.linear.weight", {2560, 4096}}}},
      {"llama", "", llama_layer(L0)},
      {"qwen2", "", llama_layer(L0, {{L0 + "self_attn.q_proj.bias", {4096}}})},
      {"qwen3", "", llama_layer(L0, {{L0 + "self_attn.q_norm.weight", {128}}})},
      {"gemma", "", llama_layer(L0, {{L0 + "pre_feedforward_layernorm.weight", {2304}}})},
      {"mixtral",
       "",
       {{L0 + "self_attn.q_proj.weight", {4096, 4096}}, {L0 + "block_sparse_moe.gate.weight", {8, 4096}}}},
      {"qwen2-moe",
       "",
       {{L0 + "self_attn.q_proj.weight", {2048, 2048}}, {L0 + "mlp.shared_expert.gate_proj.weight", {5632, 2048}}}},
      {"deepseek",
       "",
       {{L0 + "self_attn.q_proj.weight", {2048, 2048}}, {L0 + "mlp.shared_experts.gate_proj.weight", {2816, 2048}}}},
      {"phi3", "", {{L0 + "self_attn.qkv_proj.weight", {9216, 3072}}, {L0 + "mlp.gate_up_proj.weight", {16384, 3072}}}},
      {"gpt2", "", {{"wte.weight", {50257, 768}}, {"h.0.attn.c_attn.weight", {768, 2304}}}},
      {"gpt-neox", "", {{"gpt_neox.layers.0.attention.query_key_value.weight", {3072, 1024}}}},
      {"gpt-j", "", {{"transformer.h.0.mlp.fc_in.weight", {16384, 4096}}}},
      {"falcon", "", {{"transformer.h.0.self_attention.query_key_value.weight", {4672, 4544}}}},
      {"bloom",
       "",
       {{"transformer.word_embeddings_layernorm.weight", {1024}},
        {"transformer.h.0.self_attention.query_key_value.weight", {3072, 1024}}}},
      {"bert", "", {{"bert.encoder.layer.0.attention.self.query.weight", {768, 768}}}},
      {"t5", "", {{"shared.weight", {32128, 512}}, {"encoder.block.0.layer.0.SelfAttention.q.weight", {512, 512}}}},
      {"mamba", "", {{"backbone.layers.0.mixer.in_proj.weight", {3072, 768}}}},
      {"ssd-1b", "", distilled_sdxl(4)},
      {"segmind-vega", "", distilled_sdxl(2)},
      {"sdxl", "", distilled_sdxl(10)},
      {"distilbert", "", {{"distilbert.transformer.layer.0.attention.q_lin.weight", {768, 768}}}},
      {"vit", "", {{"vit.encoder.layer.0.attention.attention.query.weight", {768, 768}}}},
      {"whisper",
       "",
       {{"model.encoder.conv1.weight", {768, 80, 3}},
        {"model.decoder.layers.0.encoder_attn.q_proj.weight", {768, 768}}}},
      {"opt",
       "",
       {{"model.decoder.embed_tokens.weight", {50272, 768}},
        {"model.decoder.layers.0.self_attn.q_proj.weight", {768, 768}}}},
      {"gpt-neo",
       "",
       {{"transformer.wte.weight", {50257, 768}}, {"transformer.h.0.attn.attention.q_proj.weight", {768, 768}}}},
      // bigcode/starcoder's config.json: n_embd 6144, n_inner 24576, multi_query.
      {"gpt-bigcode",
       "",
       {{"transformer.wpe.weight", {8192, 6144}},
        {"transformer.wte.weight", {49152, 6144}},
        {"transformer.h.0.attn.c_attn.weight", {6400, 6144}},
        {"transformer.h.0.mlp.c_fc.weight", {24576, 6144}}}},
      {"clip", "vit-l", clip_text(768)},
      {"clip", "vit-bigg", clip_text(1280)},
      {"clip", "", clip_text(1024)},
  };
}

TEST(CardFamily, EachRuleOnACraftedHeader) {
  for (const Case& c : cases()) {
    const ModelCard card = card_of(c.tensors);
    ASSERT_TRUE(card.family) << c.id;
    EXPECT_EQ(card.family->id, c.id) << c.tensors.front().name;
    EXPECT_EQ(card.family->variant, c.variant) << c.id;
    EXPECT_EQ(card.kind, CardKind::Model) << c.id;
    EXPECT_FALSE(card.family->evidence.empty()) << c.id;
    EXPECT_EQ(card.family->name, family_name(c.id));
  }
}

TEST(CardFamily, ADecoderBesideAnEncoderIsNotOpt) {
  // BART's layout: OPT's decoder names with an encoder beside them (no rule names BART).
  const ModelCard bart = card_of({{"model.shared.weight", {50265, 768}},
                                  {"model.encoder.layers.0.self_attn.q_proj.weight", {768, 768}},
                                  {"model.decoder.embed_tokens.weight", {50265, 768}},
                                  {"model.decoder.layers.0.self_attn.q_proj.weight", {768, 768}}});
  EXPECT_EQ(family_id(bart), "none");
}

TEST(CardFamily, EveryFamilyHasACase) {
  std::set<std::string> covered;
  for (const Case& c : cases()) covered.insert(c.id);
  for (const FamilyName& f : kFamilies) EXPECT_TRUE(covered.contains(std::string(f.id))) << f.id << " has no test case";
}

TEST(CardFamily, EvidenceNamesTheDecidingKeyAndShape) {
  const ModelCard card = card_of(unet("model.diffusion_model.", 768));
  ASSERT_TRUE(card.family);
  EXPECT_EQ(card.family->evidence.front(),
            "model.diffusion_model.input_blocks.1.1.transformer_blocks.0.attn2.to_k.weight [320, 768]");
}

TEST(CardFamily, ACheckpointsTextEncoderDoesNotMakeItALanguageModel) {
  std::vector<T> t = unet("model.diffusion_model.", 768);
  // SD 1.x checkpoints carry CLIP's text model and the VAE beside the UNet.
  t.push_back({"cond_stage_model.transformer.text_model.encoder.layers.0.self_attn.q_proj.weight", {768, 768}});
  t.push_back({"cond_stage_model.transformer.text_model.encoder.layers.0.mlp.fc1.weight", {3072, 768}});
  t.push_back({"first_stage_model.decoder.conv_in.weight", {512, 4, 3, 3}});
  EXPECT_EQ(family_id(card_of(t)), "sd1");
  // A Flux checkpoint with T5 inside is still Flux.
  const ModelCard flux =
      card_of({{"model.diffusion_model.double_blocks.0.img_attn.norm.key_norm.scale", {128}},
               {"text_encoders.t5xxl.transformer.shared.weight", {32128, 4096}},
               {"text_encoders.t5xxl.transformer.encoder.block.0.layer.0.SelfAttention.q.weight", {4096, 4096}}});
  EXPECT_EQ(family_id(flux), "flux1");
}

TEST(CardFamily, LanguageModelArchitectureFromShapes) {
  std::vector<T> t;
  t.push_back({"model.embed_tokens.weight", {151936, 896}});
  for (int i = 0; i < 24; ++i) {
    const std::string p = "model.layers." + std::to_string(i) + ".";
    t.push_back({p + "self_attn.q_proj.weight", {896, 896}});
    t.push_back({p + "self_attn.q_proj.bias", {896}});
    t.push_back({p + "mlp.gate_proj.weight", {4864, 896}});
  }
  const ModelCard card = card_of(t);
  EXPECT_EQ(family_id(card), "qwen2");
  EXPECT_EQ(card.architecture.layers, 24);
  EXPECT_EQ(card.architecture.hidden_size, 896);
  EXPECT_EQ(card.architecture.vocab_size, 151936);
  EXPECT_FALSE(card.architecture.experts);

  const ModelCard moe = card_of({{"model.embed_tokens.weight", {32000, 4096}},
                                 {"model.layers.0.self_attn.q_proj.weight", {4096, 4096}},
                                 {"model.layers.0.block_sparse_moe.gate.weight", {8, 4096}}});
  EXPECT_EQ(moe.architecture.experts, 8);
}

TEST(CardFamily, KeysWinOverContradictingMetadataButChromaRefinesFlux) {
  const ModelCard wrong = card_of(unet("", 768), {{"ss_base_model_version", "sdxl_base_v1-0"}});
  EXPECT_EQ(family_id(wrong), "sd1");
  EXPECT_NE(wrong.family->evidence.back().find("metadata says otherwise"), std::string::npos);
  const ModelCard chroma =
      card_of({{"double_blocks.0.img_attn.qkv.weight", {9216, 3072}}}, {{"modelspec.architecture", "chroma/lora"}});
  EXPECT_EQ(family_id(chroma), "chroma");
}

}  // namespace
}  // namespace safetensors::testing
