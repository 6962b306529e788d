// The detection tables (see family_rules.h).
#include "card/family_rules.h"

namespace safetensors {
namespace {

using D = Domain;

// clang-format off
constexpr FamilyRule kRules[] = {
    // UNet checkpoints (ldm/sgm names): the cross-attention key width is the text context:
    // 768 CLIP ViT-L (SD 1.x), 1024 OpenCLIP ViT-H (SD 2.x), 2048 CLIP-L + bigG (SDXL),
    // 1280 bigG alone (SDXL refiner).
    // SSD-1B and Segmind Vega are SDXL distilled to fewer transformer blocks in the 1280-wide
    // level: 4 and 2 where SDXL has 10 (ComfyUI comfy/supported_models.py, transformer_depth).
    {"sdxl-refiner", "", D::Diffusion, {{{"input_blocks.4.1.transformer_blocks.0.attn2.to_k.weight", 1, 1280}}}},
    {"ssd-1b", "", D::Diffusion, {{{"input_blocks.4.1.transformer_blocks.0.attn2.to_k.weight", 1, 2048}, {"input_blocks.7.1.transformer_blocks.3.attn1.to_q.weight"}, {.key = "input_blocks.7.1.transformer_blocks.4.attn1.to_q.weight", .absent = true}}}},
    {"segmind-vega", "", D::Diffusion, {{{"input_blocks.4.1.transformer_blocks.0.attn2.to_k.weight", 1, 2048}, {"input_blocks.7.1.transformer_blocks.1.attn1.to_q.weight"}, {.key = "input_blocks.7.1.transformer_blocks.2.attn1.to_q.weight", .absent = true}}}},
    {"sdxl", "", D::Diffusion, {{{"input_blocks.4.1.transformer_blocks.0.attn2.to_k.weight", 1, 2048}}}},
    {"sd2", "", D::Diffusion, {{{"input_blocks.1.1.transformer_blocks.0.attn2.to_k.weight", 1, 1024}}}},
    {"sd1", "", D::Diffusion, {{{"input_blocks.1.1.transformer_blocks.0.attn2.to_k.weight", 1, 768}}}},
    // Transformers (DiT) by a key only they have. FLUX.2 and Chroma keep FLUX.1's double
    // blocks, so they come first; FLUX.1 dev has a guidance embedder, schnell none.
    {"sd3", "", D::Diffusion, {{{"joint_blocks.0.context_block.attn.qkv.weight"}}}},
    {"flux2", "", D::Diffusion, {{{"double_stream_modulation_img.lin.weight"}}}},
    {"chroma", "", D::Diffusion, {{{"distilled_guidance_layer.in_proj.weight"}}}},
    {"flux1", "dev", D::Diffusion, {{{"double_blocks.0.img_attn.norm.key_norm.scale"}, {"guidance_in.in_layer.weight"}}}},
    {"flux1", "dev", D::Diffusion, {{{"double_blocks.0.img_attn.norm.key_norm.weight"}, {"guidance_in.in_layer.weight"}}}},
    {"flux1", "schnell", D::Diffusion, {{{"double_blocks.0.img_attn.norm.key_norm.scale"}, {"img_in.weight"}}}},
    {"flux1", "schnell", D::Diffusion, {{{"double_blocks.0.img_attn.norm.key_norm.weight"}, {"img_in.weight"}}}},
    {"flux1", "", D::Diffusion, {{{"double_blocks.0.img_attn.norm.key_norm.scale"}}}},
    {"flux1", "", D::Diffusion, {{{"double_blocks.0.img_attn.norm.key_norm.weight"}}}},
    {"flux1", "", D::Diffusion, {{{"double_blocks.0.img_attn.qkv.weight"}}}},
    {"stable-cascade", "", D::Diffusion, {{{"clf.1.weight"}}}},
    {"auraflow", "", D::Diffusion, {{{"double_layers.0.attn.w1q.weight"}}}},
    {"pixart", "", D::Diffusion, {{{"t_block.1.weight"}}}},
    {"hunyuan-video", "", D::Diffusion, {{{"txt_in.individual_token_refiner.blocks.0.norm1.weight"}}}},
    {"ltxv", "", D::Diffusion, {{{"adaln_single.emb.timestep_embedder.linear_1.bias"}}}},
    {"wan", "i2v", D::Diffusion, {{{"head.modulation"}, {"img_emb.proj.0.bias"}}}},
    {"wan", "", D::Diffusion, {{{"head.modulation"}}}},
    {"lumina2", "", D::Diffusion, {{{"cap_embedder.1.weight"}}}},
    {"qwen-image", "", D::Diffusion, {{{"txt_norm.weight"}}}},
    {"hidream", "", D::Diffusion, {{{"caption_projection.0.linear.weight"}}}},
    // diffusers layouts: the UNet by the same context widths, FLUX by its single blocks
    // (before SD3, whose joint blocks FLUX's double blocks resemble).
    {"sdxl-refiner", "", D::Diffusion, {{{"down_blocks.1.attentions.0.transformer_blocks.0.attn2.to_k.weight", 1, 1280}}}},
    {"ssd-1b", "", D::Diffusion, {{{"down_blocks.1.attentions.0.transformer_blocks.0.attn2.to_k.weight", 1, 2048}, {"down_blocks.2.attentions.0.transformer_blocks.3.attn1.to_q.weight"}, {.key = "down_blocks.2.attentions.0.transformer_blocks.4.attn1.to_q.weight", .absent = true}}}},
    {"segmind-vega", "", D::Diffusion, {{{"down_blocks.1.attentions.0.transformer_blocks.0.attn2.to_k.weight", 1, 2048}, {"down_blocks.2.attentions.0.transformer_blocks.1.attn1.to_q.weight"}, {.key = "down_blocks.2.attentions.0.transformer_blocks.2.attn1.to_q.weight", .absent = true}}}},
    {"sdxl", "", D::Diffusion, {{{"down_blocks.1.attentions.0.transformer_blocks.0.attn2.to_k.weight", 1, 2048}}}},
    {"sd2", "", D::Diffusion, {{{"down_blocks.0.attentions.0.transformer_blocks.0.attn2.to_k.weight", 1, 1024}}}},
    {"sd1", "", D::Diffusion, {{{"down_blocks.0.attentions.0.transformer_blocks.0.attn2.to_k.weight", 1, 768}}}},
    {"flux1", "dev", D::Diffusion, {{{"single_transformer_blocks.0.attn.to_k.weight"}, {"time_text_embed.guidance_embedder.linear_1.weight"}}}},
    {"flux1", "schnell", D::Diffusion, {{{"single_transformer_blocks.0.attn.to_k.weight"}, {"x_embedder.weight"}}}},
    {"flux1", "", D::Diffusion, {{{"single_transformer_blocks.0.attn.to_k.weight"}}}},
    {"sd3", "", D::Diffusion, {{{"transformer_blocks.0.attn.add_q_proj.weight"}}}},

    // Language models (llama.cpp's tensor mapping). Variants of the Llama layout first:
    // each adds one key Llama lacks. Gemma 1 has Llama's keys and a 256,000-token vocabulary.
    {"gemma", "", D::Text, {{{"layers.0.pre_feedforward_layernorm.weight"}}}},
    {"gemma", "", D::Text, {{{"layers.0.self_attn.q_proj.weight"}, {"embed_tokens.weight", 0, 256000}}}},
    {"mixtral", "", D::Text, {{{"layers.0.block_sparse_moe.gate.weight"}}}},
    {"qwen2-moe", "", D::Text, {{{"layers.0.mlp.shared_expert.gate_proj.weight"}}}},
    {"deepseek", "", D::Text, {{{"layers.0.mlp.shared_experts.gate_proj.weight"}}}},
    {"qwen3", "moe", D::Text, {{{"layers.0.self_attn.q_norm.weight"}, {"layers.0.mlp.experts.0.gate_proj.weight"}}}},
    {"qwen3", "", D::Text, {{{"layers.0.self_attn.q_norm.weight"}, {"layers.0.mlp.gate_proj.weight"}}}},
    // Qwen2 has biases on q, k and v only; a file with an o_proj bias too is another layout
    // (InternLM, or AutoGPTQ's 2023 packs, which keep a bias for every linear layer).
    {"qwen2", "", D::Text, {{{"layers.0.self_attn.q_proj.bias"}, {"layers.0.mlp.gate_proj.weight"}, {.key = "layers.0.self_attn.o_proj.bias", .absent = true}}}},
    {"phi3", "", D::Text, {{{"layers.0.self_attn.qkv_proj.weight"}, {"layers.0.mlp.gate_up_proj.weight"}}}},
    {"llama", "", D::Text, {{{"layers.0.self_attn.q_proj.weight"}, {"layers.0.mlp.gate_proj.weight"}}}},
    // GPTBigCode (StarCoder) names its blocks as GPT-2 does, but with nn.Linear weights
    // ([out, in]: c_fc is [4 x hidden, hidden]) where GPT-2 has Conv1D ([in, out]).
    {"gpt-bigcode", "", D::Text, {{{.key = "h.0.mlp.c_fc.weight", .ratio = 4}, {"wpe.weight"}}}},
    // Rules with adapter_clues also name an adapter's base: the keys it adapts are enough.
    {"gpt2", "", D::Text, {{{"h.0.attn.c_attn.weight"}, {"wte.weight"}}}, 1},
    {"gpt-neo", "", D::Text, {{{"h.0.attn.attention.q_proj.weight"}, {"wte.weight"}}}, 1},
    {"gpt-neox", "", D::Text, {{{"gpt_neox.layers.0.attention.query_key_value.weight"}}}},
    // BLOOM's blocks are named like Falcon's; its embedding layer norm tells them apart, and
    // for an adapter the fused projection: BLOOM's is 3 x hidden, Falcon's (multi-query) is not.
    {"bloom", "", D::Text, {{{.key = "h.0.self_attention.query_key_value.weight", .ratio = 3}, {"word_embeddings_layernorm.weight"}}}, 1},
    {"falcon", "", D::Text, {{{"h.0.self_attention.query_key_value.weight"}}}},
    {"gpt-j", "", D::Text, {{{"h.0.mlp.fc_in.weight"}}}},
    {"bert", "", D::Text, {{{"encoder.layer.0.attention.self.query.weight"}}}},
    {"distilbert", "", D::Text, {{{"transformer.layer.0.attention.q_lin.weight"}}}},
    {"vit", "", D::Text, {{{"encoder.layer.0.attention.attention.query.weight"}}}},
    {"t5", "", D::Text, {{{"encoder.block.0.layer.0.SelfAttention.q.weight"}, {"shared.weight"}}}, 1},
    // Whisper's encoder starts with convolutions; OPT is a decoder alone (BART, Marian and
    // Whisper have an encoder beside a decoder named like OPT's).
    {"whisper", "", D::Text, {{{"encoder.conv1.weight"}, {"decoder.layers.0.encoder_attn.q_proj.weight"}}}},
    {"opt", "", D::Text, {{{"decoder.layers.0.self_attn.q_proj.weight"}, {.key = "encoder.layers.0.self_attn.q_proj.weight", .absent = true}, {"decoder.embed_tokens.weight"}}}, 2},
    {"mamba", "", D::Text, {{{"backbone.layers.0.mixer.in_proj.weight"}}}},
    // transformers' CLIP text encoders (Stable Diffusion's text_encoder folders): OpenAI ViT-L/14
    // is 768 wide, OpenCLIP ViT-bigG/14 1280 (ViT-H/14 and ViT-g/14 are both 1024: no variant).
    {"clip", "vit-l", D::Text, {{{"text_model.encoder.layers.0.self_attn.q_proj.weight"}, {"text_model.embeddings.token_embedding.weight", 1, 768}}}},
    {"clip", "vit-bigg", D::Text, {{{"text_model.encoder.layers.0.self_attn.q_proj.weight"}, {"text_model.embeddings.token_embedding.weight", 1, 1280}}}},
    {"clip", "", D::Text, {{{"text_model.encoder.layers.0.self_attn.q_proj.weight"}}}},

    // kohya adapters name modules with '_' for '.'; shapes are those of the adapted weight
    // ([out, in]). SDXL and SD3 train two or three text encoders (lora_te1_, lora_te2_, ...).
    {"sd3", "", D::Kohya, {{{"lora_unet_joint_blocks_0_context_block_attn_qkv"}}}},
    {"flux1", "", D::Kohya, {{{"lora_unet_double_blocks_0_img_attn_qkv"}}}},
    {"flux1", "", D::Kohya, {{{"lora_unet_single_blocks_0_linear1"}}}},
    {"flux1", "", D::Kohya, {{{"lora_transformer_single_transformer_blocks_0_attn_to_k"}}}},
    {"ssd-1b", "", D::Kohya, {{{"lora_unet_input_blocks_4_1_transformer_blocks_0_attn2_to_k", 1, 2048}, {"lora_unet_input_blocks_7_1_transformer_blocks_3_attn1_to_q"}, {.key = "lora_unet_input_blocks_7_1_transformer_blocks_4_attn1_to_q", .absent = true}}}},
    {"sdxl", "", D::Kohya, {{{"lora_unet_input_blocks_4_1_transformer_blocks_0_attn2_to_k", 1, 2048}}}},
    {"sdxl", "", D::Kohya, {{{"lora_unet_down_blocks_1_attentions_0_transformer_blocks_0_attn2_to_k", 1, 2048}}}},
    {"sd2", "", D::Kohya, {{{"lora_unet_down_blocks_0_attentions_0_transformer_blocks_0_attn2_to_k", 1, 1024}}}},
    {"sd1", "", D::Kohya, {{{"lora_unet_down_blocks_0_attentions_0_transformer_blocks_0_attn2_to_k", 1, 768}}}},
    {"sdxl", "", D::Kohya, {{{"lora_te2_text_model_encoder_layers_0_self_attn_q_proj", 1, 1280}}}},
    {"sd2", "", D::Kohya, {{{"lora_te_text_model_encoder_layers_0_self_attn_q_proj", 1, 1024}}}},
    {"sd1", "", D::Kohya, {{{"lora_te_text_model_encoder_layers_0_self_attn_q_proj", 1, 768}}}},
};

// kohya's ss_base_model_version and ModelSpec's architecture (the part before any "/lora").
constexpr MetadataFamily kMeta[] = {
    {"modelspec.architecture", "stable-diffusion-xl-v1-refiner*", "sdxl-refiner", ""},
    {"modelspec.architecture", "stable-diffusion-xl*", "sdxl", ""},
    {"modelspec.architecture", "stable-diffusion-v1*", "sd1", ""},
    {"modelspec.architecture", "stable-diffusion-v2*", "sd2", ""},
    {"modelspec.architecture", "stable-diffusion-v3*", "sd3", ""},
    {"modelspec.architecture", "stable-diffusion-3*", "sd3", ""},
    {"modelspec.architecture", "stable-cascade*", "stable-cascade", ""},
    {"modelspec.architecture", "flux-1-dev*", "flux1", "dev"},
    {"modelspec.architecture", "flux-1-schnell*", "flux1", "schnell"},
    {"modelspec.architecture", "flux-1*", "flux1", ""},
    {"modelspec.architecture", "chroma*", "chroma", ""},
    {"modelspec.architecture", "lumina-2*", "lumina2", ""},
    {"modelspec.architecture", "gpt-neo-x*", "gpt-neox", ""},
    {"ss_base_model_version", "sdxl*", "sdxl", ""},
    {"ss_base_model_version", "sd_v1*", "sd1", ""},
    {"ss_base_model_version", "sd_v2*", "sd2", ""},
    {"ss_base_model_version", "sd3*", "sd3", ""},
    {"ss_base_model_version", "flux1*", "flux1", ""},
    {"ss_base_model_version", "chroma*", "chroma", ""},
    {"ss_base_model_version", "lumina2*", "lumina2", ""},
    {"ss_v2", "True", "sd2", ""},
    {"ss_network_module", "networks.lora_flux", "flux1", ""},
    {"ss_network_module", "networks.lora_sd3", "sd3", ""},
};
// clang-format on

}  // namespace

const std::span<const FamilyRule> kFamilyRules{kRules};
const std::span<const MetadataFamily> kMetadataFamilies{kMeta};

std::string_view family_name(std::string_view id) {
  for (const FamilyName& f : kFamilies) {
    if (f.id == id) return f.name;
  }
  return {};
}

std::string_view encoder_width_family(std::uint64_t width) {
  for (const EncoderWidth& e : kEncoderWidths) {
    if (e.width == width) return e.id;
  }
  return {};
}

}  // namespace safetensors
