// How one module is named in the layouts of the same model: the UNet of Stable Diffusion 1.x,
// 2.x and XL in its original (LDM) single-file checkpoint and in diffusers, and the OpenCLIP
// text encoder (SD 2.x, SDXL's second) in open_clip and in transformers' CLIPTextModel.
// Facts from comfyanonymous/ComfyUI comfy/utils.py @ 00728eb20fce (unet_to_diffusers,
// UNET_MAP_RESNET, UNET_MAP_BASIC, transformers_convert) and diffusers'
// scripts/convert_original_stable_diffusion_to_diffusers.py; the code is ours.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace safetensors {

/// @brief A UNet module (no `model.diffusion_model.` prefix) as diffusers names it, from its
/// LDM name ("input_blocks.1.1.proj_in" -> "down_blocks.0.attentions.0.proj_in"); nullopt
/// when the name is not in the table.
std::optional<std::string> unet_ldm_to_diffusers(std::string_view ldm);

/// @brief The reverse: a diffusers UNet module as the LDM checkpoint names it.
std::optional<std::string> unet_diffusers_to_ldm(std::string_view diffusers);

/// @brief An open_clip text-encoder module ("transformer.resblocks.3.mlp.c_fc") as
/// transformers' CLIPTextModel names it ("text_model.encoder.layers.3.mlp.fc1"); nullopt when
/// not in the table. The fused attention input (attn.in_proj) is not here: it is three modules
/// (clip_fused_parts).
std::optional<std::string> open_clip_to_transformers(std::string_view module);

/// @brief For open_clip's fused attention input ("transformer.resblocks.3.attn.in_proj", whose
/// weight is `in_proj_weight`): the CLIPTextModel module of its `part`-th third (0 q, 1 k, 2 v).
std::optional<std::string> clip_fused_part(std::string_view module, int part);

}  // namespace safetensors
