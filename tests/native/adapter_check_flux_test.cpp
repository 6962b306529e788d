// check_adapter on FLUX.1: a LoRA in diffusers' names (transformer_blocks.N.attn.to_q, ...) against
// a checkpoint in Black Forest Labs' (double_blocks.N.img_attn.qkv, single_blocks.N.linear1, ...),
// whose fused weights hold several diffusers modules as row ranges.
// FLUX.1-dev's dimensions: huggingface/diffusers src/diffusers/models/transformers/transformer_flux.py
// @ 58eb52c0803ea9af3abec60841c2a093bdf1f951 (FluxTransformer2DModel defaults: num_layers 19,
// num_single_layers 38, 24 heads of 128 = 3072, joint_attention_dim 4096, pooled_projection_dim 768,
// in_channels 64; FluxSingleTransformerBlock mlp_ratio 4) and scripts/convert_flux_to_diffusers.py
// (the same figures, and the BFL weights each diffusers weight is cut from).
#include <gtest/gtest.h>

#include <algorithm>

#include "adapter/adapter_check.h"
#include "adapter/flux_names.h"
#include "card_test_support.h"

namespace safetensors {
namespace {

using testing::report_of;
using testing::T;

constexpr std::uint64_t kHidden = 3072, kMlp = 4 * kHidden;

AdapterCheck check(const std::vector<T>& adapter, const std::vector<T>& base) {
  const Report a = report_of(adapter);
  const Report b = report_of(base);
  return check_adapter(views_of(a.tensors), a.metadata, views_of(b.tensors));
}

// FLUX.1-dev's linear weights as BFL's flux1-dev.safetensors names them (biases and norms left out).
std::vector<T> flux_bfl() {
  const std::uint64_t h = kHidden;
  std::vector<T> out = {{"img_in.weight", {h, 64}},
                        {"txt_in.weight", {h, 4096}},
                        {"time_in.in_layer.weight", {h, 256}},
                        {"time_in.out_layer.weight", {h, h}},
                        {"vector_in.in_layer.weight", {h, 768}},
                        {"vector_in.out_layer.weight", {h, h}},
                        {"guidance_in.in_layer.weight", {h, 256}},
                        {"guidance_in.out_layer.weight", {h, h}},
                        {"final_layer.linear.weight", {64, h}},
                        {"final_layer.adaLN_modulation.1.weight", {2 * h, h}}};
  for (int b = 0; b < 19; ++b) {
    for (const std::string s : {"img", "txt"}) {
      const std::string p = "double_blocks." + std::to_string(b) + "." + s;
      out.push_back({p + "_mod.lin.weight", {6 * h, h}});
      out.push_back({p + "_attn.qkv.weight", {3 * h, h}});
      out.push_back({p + "_attn.proj.weight", {h, h}});
      out.push_back({p + "_mlp.0.weight", {kMlp, h}});
      out.push_back({p + "_mlp.2.weight", {h, kMlp}});
      out.push_back({p + "_attn.norm.query_norm.scale", {128}});
    }
  }
  for (int b = 0; b < 38; ++b) {
    const std::string p = "single_blocks." + std::to_string(b) + ".";
    out.push_back({p + "modulation.lin.weight", {3 * h, h}});
    out.push_back({p + "linear1.weight", {3 * h + kMlp, h}});
    out.push_back({p + "linear2.weight", {h, h + kMlp}});
  }
  return out;
}

struct Linear {
  std::string module;
  std::uint64_t in, out;
};

void add_lora(std::vector<T>& out, const std::string& module, std::uint64_t in, std::uint64_t o, std::uint64_t r = 16) {
  out.push_back({"transformer." + module + ".lora_A.weight", {r, in}});
  out.push_back({"transformer." + module + ".lora_B.weight", {o, r}});
}

// Every linear module of diffusers' FluxTransformer2DModel, with the shapes of its nn.Linear
// layers (in, out).
std::vector<Linear> flux_diffusers_linears() {
  const std::uint64_t h = kHidden;
  std::vector<Linear> out;
  for (int b = 0; b < 19; ++b) {
    const std::string p = "transformer_blocks." + std::to_string(b) + ".";
    for (const char* m : {"attn.to_q", "attn.to_k", "attn.to_v", "attn.add_q_proj", "attn.add_k_proj",
                          "attn.add_v_proj", "attn.to_out.0", "attn.to_add_out"})
      out.push_back({p + m, h, h});
    for (const char* ff : {"ff", "ff_context"}) {
      out.push_back({p + ff + ".net.0.proj", h, kMlp});
      out.push_back({p + ff + ".net.2", kMlp, h});
    }
    out.push_back({p + "norm1.linear", h, 6 * h});
    out.push_back({p + "norm1_context.linear", h, 6 * h});
  }
  for (int b = 0; b < 38; ++b) {
    const std::string p = "single_transformer_blocks." + std::to_string(b) + ".";
    for (const char* m : {"attn.to_q", "attn.to_k", "attn.to_v"}) out.push_back({p + m, h, h});
    out.push_back({p + "proj_mlp", h, kMlp});
    out.push_back({p + "proj_out", h + kMlp, h});
    out.push_back({p + "norm.linear", h, 3 * h});
  }
  out.push_back({"x_embedder", 64, h});
  out.push_back({"context_embedder", 4096, h});
  out.push_back({"proj_out", h, 64});
  out.push_back({"norm_out.linear", h, 2 * h});
  for (const char* e : {"timestep_embedder", "guidance_embedder"}) {
    out.push_back({std::string("time_text_embed.") + e + ".linear_1", 256, h});
    out.push_back({std::string("time_text_embed.") + e + ".linear_2", h, h});
  }
  out.push_back({"time_text_embed.text_embedder.linear_1", 768, h});
  out.push_back({"time_text_embed.text_embedder.linear_2", h, h});
  return out;
}

// A diffusers FLUX LoRA on all of them, as diffusers' and ai-toolkit's trainers write it.
std::vector<T> flux_diffusers_lora() {
  std::vector<T> out;
  for (const Linear& l : flux_diffusers_linears()) add_lora(out, l.module, l.in, l.out);
  return out;
}

// A diffusers-format FLUX transformer (transformer/diffusion_pytorch_model-*.safetensors).
std::vector<T> flux_diffusers() {
  std::vector<T> out;
  for (const Linear& l : flux_diffusers_linears()) out.push_back({l.module + ".weight", {l.out, l.in}});
  return out;
}

// A kohya FLUX LoRA (BFL's names, '.' written '_') on every linear weight of a BFL checkpoint.
std::vector<T> flux_kohya_lora() {
  std::vector<T> out;
  for (const T& t : flux_bfl()) {
    if (t.shape.size() != 2) continue;
    std::string m = "lora_unet_" + t.name.substr(0, t.name.size() - 7);
    std::replace(m.begin(), m.end(), '.', '_');
    out.push_back({m + ".lora_down.weight", {16, t.shape[1]}});
    out.push_back({m + ".lora_up.weight", {t.shape[0], 16}});
  }
  return out;
}

TEST(FluxNames, FusedWeightsAreCutIntoRowRanges) {
  const std::vector<std::uint64_t> linear1 = {3 * kHidden + kMlp, kHidden};
  const auto parts = flux_bfl_to_diffusers("single_blocks.7.linear1", linear1);
  ASSERT_EQ(parts.size(), 4u);
  EXPECT_EQ(parts[1].diffusers, "single_transformer_blocks.7.attn.to_k");
  EXPECT_EQ(parts[1].offset, kHidden);
  EXPECT_EQ(parts[1].rows, kHidden);
  EXPECT_EQ(parts[3].diffusers, "single_transformer_blocks.7.proj_mlp");
  EXPECT_EQ(parts[3].offset, 3 * kHidden);
  EXPECT_EQ(parts[3].rows, kMlp);
  const std::vector<std::uint64_t> qkv = {3 * kHidden, kHidden};
  const auto txt = flux_bfl_to_diffusers("double_blocks.18.txt_attn.qkv", qkv);
  ASSERT_EQ(txt.size(), 3u);
  EXPECT_EQ(txt[2].diffusers, "transformer_blocks.18.attn.add_v_proj");
  EXPECT_EQ(txt[2].offset, 2 * kHidden);
  EXPECT_TRUE(flux_bfl_to_diffusers("double_blocks.x.img_attn.qkv", qkv).empty());
  EXPECT_TRUE(flux_bfl_to_diffusers("single_blocks.0.linear1", qkv).empty());  // no rows left for the MLP
  const auto back = flux_diffusers_to_bfl("single_transformer_blocks.7.proj_mlp");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->bfl, "single_blocks.7.linear1");
  EXPECT_EQ(back->part, 3);
  EXPECT_EQ(back->parts, 4);
  EXPECT_EQ(flux_diffusers_to_bfl("transformer_blocks.0.attn.to_add_out")->bfl, "double_blocks.0.txt_attn.proj");
  EXPECT_FALSE(flux_diffusers_to_bfl("transformer_blocks.0.attn.norm_q"));
}

TEST(AdapterCheckFlux, DiffusersLoraFitsBflCheckpoint) {
  const AdapterCheck c = check(flux_diffusers_lora(), flux_bfl());
  for (const auto& m : c.unmatched) ADD_FAILURE() << m.key << ": " << m.reason;
  EXPECT_TRUE(c.compatible());
  EXPECT_EQ(c.modules, 19u * 14 + 38u * 6 + 10);
  EXPECT_EQ(c.matched, c.modules);
  EXPECT_EQ(c.base_format, "bfl");
  EXPECT_EQ(c.adapter_format, "diffusers");
  // ComfyUI's saves put the model under model.diffusion_model.
  std::vector<T> comfy = flux_bfl();
  for (T& t : comfy) t.name = "model.diffusion_model." + t.name;
  EXPECT_TRUE(check(flux_diffusers_lora(), comfy).compatible());
  // kohya's format with diffusers' names, '.' written '_'.
  const std::string m = "lora_transformer_single_transformer_blocks_3_proj_mlp";
  const AdapterCheck kohya =
      check({{m + ".lora_down.weight", {8, kHidden}}, {m + ".lora_up.weight", {kMlp, 8}}}, comfy);
  EXPECT_TRUE(kohya.compatible());
  EXPECT_EQ(kohya.adapter_format, "kohya");
}

TEST(AdapterCheckFlux, WrongWidthsAndMissingBlocksSayWhy) {
  std::vector<T> lora;
  add_lora(lora, "single_transformer_blocks.0.attn.to_k", kHidden, 2048);        // out for another hidden size
  add_lora(lora, "single_transformer_blocks.0.proj_mlp", kHidden, 3 * kHidden);  // mlp ratio 3
  add_lora(lora, "single_transformer_blocks.0.proj_out", kHidden + 3 * kHidden, kHidden);
  add_lora(lora, "transformer_blocks.0.attn.add_q_proj", 2048, kHidden);
  add_lora(lora, "transformer_blocks.19.attn.to_q", kHidden, kHidden);  // FLUX.1 has 19: 0 to 18
  add_lora(lora, "transformer_blocks.0.attn.to_v", kHidden, kHidden);
  const AdapterCheck c = check(lora, flux_bfl());
  EXPECT_FALSE(c.compatible());
  EXPECT_EQ(c.matched, 1u);
  ASSERT_EQ(c.unmatched.size(), 5u);
  const auto reason = [&](std::size_t i) { return c.unmatched[i].reason; };
  EXPECT_EQ(reason(0),
            "lora_B.weight [2048, 16] gives 2048 outputs; the base's single_blocks.0.linear1.weight [21504, 3072] "
            "(its rows 3072 to 6143, a part of a fused weight: 3072 rows) has 3072");
  EXPECT_NE(reason(1).find("gives 9216 outputs; the base's single_blocks.0.linear1.weight [21504, 3072] (its rows "
                           "9216 to 21503, a part of a fused weight: 12288 rows) has 12288"),
            std::string::npos)
      << reason(1);
  EXPECT_NE(reason(2).find("reads 12288 inputs; the base's single_blocks.0.linear2.weight [3072, 15360] takes 15360"),
            std::string::npos)
      << reason(2);
  EXPECT_NE(reason(3).find("reads 2048 inputs; the base's double_blocks.0.txt_attn.qkv.weight"), std::string::npos)
      << reason(3);
  EXPECT_EQ(c.unmatched[4].key, "transformer.transformer_blocks.19.attn.to_q");
  EXPECT_NE(reason(4).find("held in BFL's layout by double_blocks.19.img_attn.qkv.weight"), std::string::npos)
      << reason(4);
}

TEST(AdapterCheckFlux, KohyaBflLoraFitsDiffusersTransformer) {
  const AdapterCheck c = check(flux_kohya_lora(), flux_diffusers());
  for (const auto& m : c.unmatched) ADD_FAILURE() << m.key << ": " << m.reason;
  EXPECT_TRUE(c.compatible());
  EXPECT_EQ(c.modules, 10u + 19 * 2 * 5 + 38 * 3);
  EXPECT_EQ(c.base_format, "diffusers");
  // A single block whose MLP is 3 x 3072 wide, and a double block without its to_v.
  std::vector<T> base = flux_diffusers();
  for (T& t : base) {
    if (t.name == "single_transformer_blocks.0.proj_mlp.weight") t.shape = {3 * kHidden, kHidden};
  }
  std::erase_if(base, [](const T& t) { return t.name == "transformer_blocks.0.attn.to_v.weight"; });
  const AdapterCheck wrong = check(flux_kohya_lora(), base);
  EXPECT_EQ(wrong.matched, wrong.modules - 2);
  ASSERT_EQ(wrong.unmatched.size(), 2u);
  EXPECT_EQ(wrong.unmatched[0].key, "lora_unet_double_blocks_0_img_attn_qkv");
  EXPECT_NE(wrong.unmatched[0].reason.find("no module of the base's model is named double_blocks_0_img_attn_qkv"),
            std::string::npos)
      << wrong.unmatched[0].reason;
  EXPECT_EQ(wrong.unmatched[1].reason,
            "lora_up.weight [21504, 16] gives 21504 outputs; the base's single_transformer_blocks.0.attn.to_q.weight, "
            "single_transformer_blocks.0.attn.to_k.weight, single_transformer_blocks.0.attn.to_v.weight, "
            "single_transformer_blocks.0.proj_mlp.weight (stacked) [18432, 3072] has 18432");
}

}  // namespace
}  // namespace safetensors
