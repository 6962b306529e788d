// check_adapter: adapted modules found in the base across naming conventions, shapes checked.
#include <gtest/gtest.h>

#include "adapter/adapter_check.h"
#include "adapter/unet_names.h"
#include "card_test_support.h"

namespace safetensors {
namespace {

using testing::packed_linear;
using testing::report_of;
using testing::T;

AdapterCheck check(const std::vector<T>& adapter, const std::vector<T>& base) {
  const Report a = report_of(adapter);
  const Report b = report_of(base);
  return check_adapter(views_of(a.tensors), a.metadata, views_of(b.tensors));
}

std::vector<T> lora(const std::string& module, std::uint64_t r, std::uint64_t in, std::uint64_t out,
                    const std::string& down = ".lora_down.weight", const std::string& up = ".lora_up.weight") {
  return {{module + down, {r, in}}, {module + up, {out, r}}};
}

TEST(UnetNames, LdmAndDiffusersNamesCorrespond) {
  // comfyanonymous/ComfyUI comfy/utils.py unet_to_diffusers, SD 1.5 (four levels) and SDXL.
  EXPECT_EQ(unet_ldm_to_diffusers("input_blocks.1.1.transformer_blocks.0.attn1.to_q"),
            "down_blocks.0.attentions.0.transformer_blocks.0.attn1.to_q");
  EXPECT_EQ(unet_ldm_to_diffusers("input_blocks.5.0.in_layers.2"), "down_blocks.1.resnets.1.conv1");
  EXPECT_EQ(unet_ldm_to_diffusers("input_blocks.3.0.op"), "down_blocks.0.downsamplers.0.conv");
  EXPECT_EQ(unet_ldm_to_diffusers("middle_block.2.emb_layers.1"), "mid_block.resnets.1.time_emb_proj");
  EXPECT_EQ(unet_ldm_to_diffusers("output_blocks.8.2.conv"), "up_blocks.2.upsamplers.0.conv");
  EXPECT_EQ(unet_ldm_to_diffusers("output_blocks.4.1.proj_out"), "up_blocks.1.attentions.1.proj_out");
  EXPECT_EQ(unet_ldm_to_diffusers("time_embed.2"), "time_embedding.linear_2");
  EXPECT_EQ(unet_ldm_to_diffusers("input_blocks.1.0.nonsense"), std::nullopt);
  for (const char* ldm : {"input_blocks.7.1.proj_in", "input_blocks.11.0.skip_connection", "middle_block.1.norm",
                          "output_blocks.0.0.out_layers.3", "label_emb.0.0", "input_blocks.6.0.op"}) {
    const auto diffusers = unet_ldm_to_diffusers(ldm);
    ASSERT_TRUE(diffusers) << ldm;
    EXPECT_EQ(unet_diffusers_to_ldm(*diffusers), ldm);
  }
  EXPECT_EQ(open_clip_to_transformers("transformer.resblocks.3.mlp.c_fc"), "text_model.encoder.layers.3.mlp.fc1");
  EXPECT_EQ(clip_fused_part("transformer.resblocks.0.attn.in_proj", 2), "text_model.encoder.layers.0.self_attn.v_proj");
}

TEST(AdapterCheck, KohyaSd1LoraFitsLdmAndDiffusersBases) {
  auto adapter = lora("lora_unet_down_blocks_0_attentions_0_transformer_blocks_0_attn2_to_k", 4, 768, 320);
  for (auto& t : lora("lora_te_text_model_encoder_layers_0_self_attn_q_proj", 4, 768, 768)) adapter.push_back(t);
  adapter.push_back({"lora_unet_down_blocks_0_attentions_0_transformer_blocks_0_attn2_to_k.alpha", {}});
  const std::vector<T> ldm = {
      {"model.diffusion_model.input_blocks.1.1.transformer_blocks.0.attn2.to_k.weight", {320, 768}},
      {"cond_stage_model.transformer.text_model.encoder.layers.0.self_attn.q_proj.weight", {768, 768}}};
  AdapterCheck c = check(adapter, ldm);
  EXPECT_TRUE(c.compatible());
  EXPECT_EQ(c.matched, 2u);
  EXPECT_EQ(c.base_format, "ldm");
  EXPECT_EQ(c.adapter_format, "kohya");

  // The UNet alone, in diffusers' layout: the text encoder's module has nowhere to go.
  c = check(adapter, {{"down_blocks.0.attentions.0.transformer_blocks.0.attn2.to_k.weight", {320, 768}}});
  EXPECT_FALSE(c.compatible());
  EXPECT_EQ(c.matched, 1u);
  ASSERT_EQ(c.unmatched.size(), 1u);
  EXPECT_EQ(c.unmatched[0].key, "lora_te_text_model_encoder_layers_0_self_attn_q_proj");
  EXPECT_EQ(c.base_format, "diffusers");
}

TEST(AdapterCheck, SdxlTextEncoder2MapsToOpenClipFusedInProjection) {
  auto adapter = lora("lora_te2_text_model_encoder_layers_0_self_attn_k_proj", 8, 1280, 1280);
  for (auto& t : lora("lora_unet_input_blocks_4_1_transformer_blocks_0_attn2_to_k", 8, 2048, 640)) adapter.push_back(t);
  const std::vector<T> sdxl = {
      {"conditioner.embedders.1.model.transformer.resblocks.0.attn.in_proj_weight", {3840, 1280}},
      {"model.diffusion_model.input_blocks.4.1.transformer_blocks.0.attn2.to_k.weight", {640, 2048}}};
  EXPECT_TRUE(check(adapter, sdxl).compatible());
  // The same SDXL LoRA on SD 1.5: a text encoder 2 it lacks, and cross-attention 768 wide.
  const std::vector<T> sd15 = {
      {"model.diffusion_model.input_blocks.4.1.transformer_blocks.0.attn2.to_k.weight", {640, 768}},
      {"cond_stage_model.transformer.text_model.encoder.layers.0.self_attn.k_proj.weight", {768, 768}}};
  const AdapterCheck c = check(adapter, sd15);
  EXPECT_FALSE(c.compatible());
  EXPECT_EQ(c.matched, 0u);
  ASSERT_EQ(c.unmatched.size(), 2u);
  EXPECT_NE(c.unmatched[0].reason.find("text_encoder_2"), std::string::npos) << c.unmatched[0].reason;
  EXPECT_NE(c.unmatched[1].reason.find("reads 2048 inputs"), std::string::npos) << c.unmatched[1].reason;
}

TEST(AdapterCheck, PeftAndMlxAgainstTransformersCheckpoints) {
  auto peft =
      lora("base_model.model.model.layers.0.self_attn.k_proj", 8, 2048, 256, ".lora_A.weight", ".lora_B.weight");
  const std::vector<T> llama = {{"model.layers.0.self_attn.k_proj.weight", {256, 2048}}};
  EXPECT_TRUE(check(peft, llama).compatible());
  // Saved without the `model.` wrapper (LlamaModel), and GPT-2's transformer. prefix likewise.
  EXPECT_TRUE(check(peft, {{"layers.0.self_attn.k_proj.weight", {256, 2048}}}).compatible());
  const std::vector<T> mlx = {{"model.layers.0.self_attn.k_proj.lora_a", {2048, 8}},
                              {"model.layers.0.self_attn.k_proj.lora_b", {8, 256}}};
  EXPECT_TRUE(check(mlx, llama).compatible());
  const AdapterCheck wrong = check(mlx, {{"model.layers.0.self_attn.k_proj.weight", {512, 2048}}});
  ASSERT_EQ(wrong.unmatched.size(), 1u);
  EXPECT_NE(wrong.unmatched[0].reason.find("gives 256 outputs"), std::string::npos) << wrong.unmatched[0].reason;
}

TEST(AdapterCheck, Gpt2Conv1DWeightsAreReadInByOut) {
  // transformers' Conv1D stores [in, out]: GPT-2's c_attn takes 768 inputs and gives 2304.
  const auto peft =
      lora("base_model.model.transformer.h.0.attn.c_attn", 8, 768, 2304, ".lora_A.weight", ".lora_B.weight");
  EXPECT_TRUE(check(peft, {{"h.0.attn.c_attn.weight", {768, 2304}}}).compatible());
  // A smaller GPT-2 (hidden 64): the reason names its real inputs, 64, not its outputs.
  const AdapterCheck small = check(peft, {{"h.0.attn.c_attn.weight", {64, 192}}});
  ASSERT_EQ(small.unmatched.size(), 1u);
  EXPECT_NE(small.unmatched[0].reason.find("reads 768 inputs; the base's h.0.attn.c_attn.weight [64, 192] (a Conv1D "
                                           "weight, [in, out]) takes 64"),
            std::string::npos)
      << small.unmatched[0].reason;
}

TEST(AdapterCheck, RankMismatchMissingModuleAndConvKernels) {
  std::vector<T> adapter = {{"lora_unet_conv_in.lora_down.weight", {4, 4, 3, 3}},
                            {"lora_unet_conv_in.lora_up.weight", {320, 8, 1, 1}}};
  AdapterCheck c = check(adapter, {{"model.diffusion_model.input_blocks.0.0.weight", {320, 4, 3, 3}}});
  ASSERT_EQ(c.unmatched.size(), 1u);
  EXPECT_NE(c.unmatched[0].reason.find("rank"), std::string::npos) << c.unmatched[0].reason;
  adapter[1].shape = {320, 4, 1, 1};
  EXPECT_TRUE(check(adapter, {{"model.diffusion_model.input_blocks.0.0.weight", {320, 4, 3, 3}}}).compatible());
  c = check(adapter, {{"model.diffusion_model.input_blocks.0.0.weight", {320, 4, 1, 1}}});
  EXPECT_FALSE(c.compatible());
  c = check(adapter, {{"model.diffusion_model.out.2.weight", {4, 320, 3, 3}}});
  ASSERT_EQ(c.unmatched.size(), 1u);
  EXPECT_NE(c.unmatched[0].reason.find("no module of the base's unet is named conv_in"), std::string::npos)
      << c.unmatched[0].reason;
}

TEST(AdapterCheck, LokrLohaAndFusedQkv) {
  const std::vector<T> lokr = {{"lora_unet_double_blocks_0_img_attn_qkv.lokr_w1", {4, 4}},
                               {"lora_unet_double_blocks_0_img_attn_qkv.lokr_w2", {2304, 768}}};
  EXPECT_TRUE(check(lokr, {{"double_blocks.0.img_attn.qkv.weight", {9216, 3072}}}).compatible());
  EXPECT_FALSE(check(lokr, {{"double_blocks.0.img_attn.qkv.weight", {9216, 2048}}}).compatible());
  const std::vector<T> loha = {{"lora_unet_double_blocks_0_img_attn_qkv.hada_w1_a", {9216, 4}},
                               {"lora_unet_double_blocks_0_img_attn_qkv.hada_w1_b", {4, 3072}},
                               {"lora_unet_double_blocks_0_img_attn_qkv.hada_w2_a", {9216, 4}},
                               {"lora_unet_double_blocks_0_img_attn_qkv.hada_w2_b", {4, 3072}}};
  const AdapterCheck c = check(loha, {{"double_blocks.0.img_attn.qkv.weight", {9216, 3072}}});
  EXPECT_TRUE(c.compatible());
  EXPECT_EQ(c.base_format, "bfl");
  EXPECT_EQ(c.adapter_type, "loha");
}

TEST(AdapterCheck, DiffusersLoraOnDiffusersUnetAndPackedQuantizedBases) {
  const auto adapter = lora("unet.up_blocks.1.attentions.2.transformer_blocks.0.attn2.to_v", 4, 768, 1280,
                            ".lora.down.weight", ".lora.up.weight");
  EXPECT_TRUE(
      check(adapter, {{"up_blocks.1.attentions.2.transformer_blocks.0.attn2.to_v.weight", {1280, 768}}}).compatible());
  EXPECT_TRUE(
      check(adapter, {{"model.diffusion_model.output_blocks.5.1.transformer_blocks.0.attn2.to_v.weight", {1280, 768}}})
          .compatible());
  // A GPTQ qweight without its qzeros and scales, and an MLX 4-bit weight: found, but their packed
  // shapes say nothing of in and out.
  const auto peft =
      lora("base_model.model.model.layers.0.self_attn.k_proj", 8, 2048, 256, ".lora_A.weight", ".lora_B.weight");
  for (const T& packed : {T{"model.layers.0.self_attn.k_proj.qweight", {256, 256}, Dtype::I32},
                          T{"model.layers.0.self_attn.k_proj.weight", {256, 256}, Dtype::U32}}) {
    const AdapterCheck c = check(peft, {packed});
    ASSERT_EQ(c.unmatched.size(), 1u);
    EXPECT_NE(c.unmatched[0].reason.find("not supported: the base's model.layers.0.self_attn.k_proj"),
              std::string::npos)
        << c.unmatched[0].reason;
  }
}

TEST(AdapterCheck, PeftLoraOnGptqAndAwqBasesIsCheckedAgainstTheUnpackedWeight) {
  // Llama-2-13B (MythoMax L2 13B; Barksdale27/1 at 2a6a8d47826271a065b7589f001c359022b4950d,
  // config.json: hidden_size 5120, intermediate_size 13824; quantize_config.json: 4 bits, group
  // 128): GPTQ's q_proj qweight [640, 5120] I32, scales [40, 5120]; down_proj qweight [1728, 5120].
  // The same layers as AutoAWQ packs them: q_proj qweight [5120, 640], down_proj [13824, 640].
  for (const bool awq : {false, true}) {
    std::vector<T> base = {{"model.embed_tokens.weight", {32000, 5120}}};
    for (T& p : packed_linear("model.layers.0.self_attn.q_proj", 5120, 5120, awq)) base.push_back(std::move(p));
    for (T& p : packed_linear("model.layers.0.mlp.down_proj", 13824, 5120, awq)) base.push_back(std::move(p));
    EXPECT_EQ(base[1].shape, (awq ? std::vector<std::uint64_t>{5120, 640} : std::vector<std::uint64_t>{640, 5120}));
    EXPECT_EQ(base[5 - awq].shape,
              (awq ? std::vector<std::uint64_t>{13824, 640} : std::vector<std::uint64_t>{1728, 5120}));
    std::vector<T> adapter =
        lora("base_model.model.model.layers.0.self_attn.q_proj", 16, 5120, 5120, ".lora_A.weight", ".lora_B.weight");
    for (T& p :
         lora("base_model.model.model.layers.0.mlp.down_proj", 16, 13824, 5120, ".lora_A.weight", ".lora_B.weight"))
      adapter.push_back(std::move(p));
    const AdapterCheck ok = check(adapter, base);
    EXPECT_TRUE(ok.compatible()) << awq << (ok.unmatched.empty() ? "" : ok.unmatched[0].reason);
    EXPECT_EQ(ok.matched, 2u);
    // A LoRA made for Llama-2-7B (4096 wide) reads the wrong width: the reason names the unpacked shape.
    const AdapterCheck bad = check(
        lora("base_model.model.model.layers.0.mlp.down_proj", 16, 11008, 4096, ".lora_A.weight", ".lora_B.weight"),
        base);
    EXPECT_FALSE(bad.compatible());
    ASSERT_EQ(bad.unmatched.size(), 1u);
    EXPECT_EQ(bad.unmatched[0].reason,
              "lora_A.weight [16, 11008] reads 11008 inputs; the base's model.layers.0.mlp.down_proj.qweight "
              "(unpacked) [5120, 13824] takes 13824")
        << awq;
  }
  // Without its qzeros, a qweight's bits are not known: still not supported, with why.
  const AdapterCheck c = check(
      lora("base_model.model.model.layers.0.self_attn.q_proj", 16, 5120, 5120, ".lora_A.weight", ".lora_B.weight"),
      {{"model.layers.0.self_attn.q_proj.qweight", {640, 5120}, Dtype::I32},
       {"model.layers.0.self_attn.q_proj.scales", {40, 5120}}});
  ASSERT_EQ(c.unmatched.size(), 1u);
  EXPECT_NE(c.unmatched[0].reason.find("not supported"), std::string::npos);
  EXPECT_NE(c.unmatched[0].reason.find("qzeros and scales"), std::string::npos) << c.unmatched[0].reason;
}

TEST(AdapterCheck, NotAnAdapterAndAdapterAsBase) {
  const std::vector<T> model = {{"model.layers.0.self_attn.k_proj.weight", {256, 2048}}};
  AdapterCheck c = check(model, model);
  EXPECT_FALSE(c.compatible());
  ASSERT_EQ(c.unmatched.size(), 1u);
  EXPECT_EQ(c.unmatched[0].key, "");
  EXPECT_NE(c.unmatched[0].reason.find("not an adapter"), std::string::npos);
  EXPECT_TRUE(c.adapter_format.empty());
  const auto adapter =
      lora("base_model.model.model.layers.0.self_attn.k_proj", 8, 2048, 256, ".lora_A.weight", ".lora_B.weight");
  c = check(adapter, adapter);
  ASSERT_EQ(c.unmatched.size(), 1u);
  EXPECT_NE(c.unmatched[0].reason.find("adapter itself"), std::string::npos);
  std::string json;
  write_adapter_check_json(c, json);
  EXPECT_NE(json.find("\"compatible\":false"), std::string::npos) << json;
}

}  // namespace
}  // namespace safetensors
