// How a FLUX.1 transformer's modules are named in Black Forest Labs' checkpoints (BFL:
// `double_blocks.N.img_attn.qkv`, `single_blocks.N.linear1`, ...) and in diffusers'
// FluxTransformer2DModel (`transformer_blocks.N.attn.to_q`, `single_transformer_blocks.N.proj_mlp`,
// ...). BFL fuses some of diffusers' modules into one weight, stacked by rows: a double block's
// `qkv` holds q, k and v (3 equal parts); a single block's `linear1` holds q, k, v (hidden rows
// each) then the MLP's input projection (the rest, mlp_ratio x hidden). Facts from
// huggingface/diffusers scripts/convert_flux_to_diffusers.py @ 58eb52c0803ea9af3abec60841c2a093bdf1f951
// (convert_flux_transformer_checkpoint_to_diffusers); the code is ours.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace safetensors {

/// @brief A diffusers FLUX module and the rows it occupies of the BFL weight that holds it.
struct FluxRows {
  std::string diffusers;     ///< "transformer_blocks.3.attn.to_k"
  std::uint64_t offset = 0;  ///< first row in the BFL weight
  std::uint64_t rows = 0;    ///< rows; 0: the whole weight
};

/// @brief The diffusers modules a BFL module (no prefix, no `.weight`) holds, given the BFL
/// weight's shape [out, in]; empty when the name is not a FLUX module that diffusers has, or the
/// shape cannot be split as FLUX's is.
std::vector<FluxRows> flux_bfl_to_diffusers(std::string_view bfl, std::span<const std::uint64_t> shape);

/// @brief The reverse: the BFL module that holds a diffusers FLUX module, and its part (0 for a
/// module that is a whole BFL weight; for fused ones 0 q, 1 k, 2 v, 3 the MLP of linear1) and the
/// number of parts of that BFL weight (1, 3 or 4).
struct FluxPart {
  std::string bfl;
  int part = 0;
  int parts = 1;
};
std::optional<FluxPart> flux_diffusers_to_bfl(std::string_view diffusers);

}  // namespace safetensors
