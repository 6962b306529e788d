// How adapters name their tensors: the suffix of each part, the method it belongs to and
// its role. Sources: kohya-ss sd-scripts networks/lora.py (lora_down/lora_up/alpha),
// KohakuBlueleaf/LyCORIS (hada_*, lokr_*, dora_scale, GLoRA a1/a2/b1/b2, oft_blocks, diff),
// huggingface/peft (lora_A/lora_B, lora_magnitude_vector), diffusers (lora.down/up,
// lora_linear_layer; before 0.21, attention processors: to_k_lora.down), ml-explore/mlx-examples
// llms/mlx_lm/tuner/lora.py (lora_a [in, r], lora_b [r, out]).
#pragma once

#include <cstdint>
#include <string_view>

namespace safetensors {

/// @brief What a part tells about the adapted weight.
enum class PartRole : std::uint8_t {
  Down,   ///< [rank, in, ...]
  Up,     ///< [out, rank, ...]
  DownT,  ///< MLX: [in, rank]
  UpT,    ///< MLX: [rank, out]
  Mid,    ///< LoCon's middle conv
  Alpha,  ///< a scalar
  Scale,  ///< DoRA's magnitude
  W1A,    ///< LoHa/LoKr left factor: [out1, rank]
  W1B,    ///< [rank, in1]
  W1,     ///< LoKr full left factor [out1, in1]
  W2A,    ///< [out2, rank]
  W2B,    ///< [rank, in2]
  W2,     ///< LoKr full right factor [out2, in2]
  Other,  ///< a part that does not give sizes
  Full,   ///< a full difference [out, in]
};

/// @brief One tensor suffix of an adapter.
struct AdapterPart {
  std::string_view suffix;  ///< what the tensor name ends with
  std::string_view type;    ///< the method ("" for parts every method has)
  PartRole role;
  std::string_view format = {};  ///< the format only this part has ("" when it says none)
};

// clang-format off
inline constexpr AdapterPart kAdapterParts[] = {
    {".lora_down.weight", "lora", PartRole::Down},   {".lora_up.weight", "lora", PartRole::Up},
    {".lora_mid.weight", "lora", PartRole::Mid},
    {".lora_A.weight", "lora", PartRole::Down},      {".lora_B.weight", "lora", PartRole::Up},
    {".lora.down.weight", "lora", PartRole::Down},   {".lora.up.weight", "lora", PartRole::Up},
    {".lora_linear_layer.down.weight", "lora", PartRole::Down},
    {".lora_linear_layer.up.weight", "lora", PartRole::Up},
    {"_lora.down.weight", "lora", PartRole::Down, "diffusers"},
    {"_lora.up.weight", "lora", PartRole::Up, "diffusers"},
    {".lora_a", "lora", PartRole::DownT, "mlx"},       {".lora_b", "lora", PartRole::UpT, "mlx"},
    {".alpha", "", PartRole::Alpha},
    {".dora_scale", "dora", PartRole::Scale},        {".lora_magnitude_vector", "dora", PartRole::Scale},
    {".lora_magnitude_vector.weight", "dora", PartRole::Scale},
    {".hada_w1_a", "loha", PartRole::W1A},           {".hada_w1_b", "loha", PartRole::W1B},
    {".hada_w2_a", "loha", PartRole::W2A},           {".hada_w2_b", "loha", PartRole::W2B},
    {".hada_t1", "loha", PartRole::Other},           {".hada_t2", "loha", PartRole::Other},
    {".lokr_w1", "lokr", PartRole::W1},              {".lokr_w1_a", "lokr", PartRole::W1A},
    {".lokr_w1_b", "lokr", PartRole::W1B},           {".lokr_w2", "lokr", PartRole::W2},
    {".lokr_w2_a", "lokr", PartRole::W2A},           {".lokr_w2_b", "lokr", PartRole::W2B},
    {".lokr_t2", "lokr", PartRole::Other},
    {".a1.weight", "glora", PartRole::Other},        {".a2.weight", "glora", PartRole::Other},
    {".b1.weight", "glora", PartRole::Other},        {".b2.weight", "glora", PartRole::Other},
    {".oft_blocks", "oft", PartRole::Other},         {".oft_diag", "oft", PartRole::Other},
    {".diff", "diff", PartRole::Full},               {".diff_b", "diff", PartRole::Other},
};
// clang-format on

/// @brief Method types from the most to the least telling: a file with DoRA scales is DoRA
/// even though it also has lora_down/lora_up.
inline constexpr std::string_view kAdapterTypePriority[] = {"dora", "lokr", "loha", "glora", "oft", "lora", "diff"};

/// @brief Model parts named by kohya's module prefixes.
struct KohyaPrefix {
  std::string_view prefix;
  std::string_view target;
};

inline constexpr KohyaPrefix kKohyaPrefixes[] = {
    {"lora_unet_", "unet"},          {"lora_te1_", "text_encoder_1"}, {"lora_te2_", "text_encoder_2"},
    {"lora_te3_", "text_encoder_3"}, {"lora_te_", "text_encoder"},    {"lora_transformer_", "transformer"},
};

}  // namespace safetensors
