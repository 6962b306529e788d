// Model families and the rules that recognise them, as data. Each rule names keys as they
// appear in real files (numbers are wildcards, see key_index.h); the first rule whose every
// clue holds decides. Sources: comfyanonymous/ComfyUI comfy/model_detection.py (diffusion
// models), ggml-org/llama.cpp gguf-py/gguf/tensor_mapping.py (language models), kohya-ss/sd-scripts
// networks/lora.py (LoRA names).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace safetensors {

/// @brief A family's stable id and its name for people.
struct FamilyName {
  std::string_view id;
  std::string_view name;
};

// clang-format off
/// @brief Every family the card can name.
inline constexpr FamilyName kFamilies[] = {
    {"sd1", "Stable Diffusion 1.x"},          {"sd2", "Stable Diffusion 2.x"},
    {"sdxl", "Stable Diffusion XL"},          {"sdxl-refiner", "Stable Diffusion XL Refiner"},
    {"sd3", "Stable Diffusion 3"},            {"flux1", "FLUX.1"},
    {"flux2", "FLUX.2"},                      {"chroma", "Chroma"},
    {"auraflow", "AuraFlow"},                 {"pixart", "PixArt"},
    {"stable-cascade", "Stable Cascade"},     {"hunyuan-video", "HunyuanVideo"},
    {"ltxv", "LTX-Video"},                    {"wan", "Wan"},
    {"lumina2", "Lumina 2"},                  {"qwen-image", "Qwen-Image"},
    {"hidream", "HiDream"},                   {"llama", "Llama-like decoder"},
    {"qwen2", "Qwen2"},                       {"qwen3", "Qwen3"},
    {"gemma", "Gemma"},                       {"mixtral", "Mixtral"},
    {"qwen2-moe", "Qwen2-MoE"},               {"deepseek", "DeepSeek"},
    {"phi3", "Phi-3"},                        {"gpt2", "GPT-2"},
    {"gpt-neox", "GPT-NeoX"},                 {"gpt-j", "GPT-J"},
    {"falcon", "Falcon"},                     {"bloom", "BLOOM"},
    {"bert", "BERT"},                         {"t5", "T5"},
    {"mamba", "Mamba"},                       {"ssd-1b", "SSD-1B"},
    {"segmind-vega", "Segmind Vega"},         {"distilbert", "DistilBERT"},
    {"vit", "ViT"},                           {"whisper", "Whisper"},
    {"opt", "OPT"},                           {"gpt-neo", "GPT-Neo"},
    {"gpt-bigcode", "GPTBigCode (StarCoder)"}, {"clip", "CLIP text encoder"},
};
// clang-format on

/// @brief The family's name for people ("" for an unknown id).
std::string_view family_name(std::string_view id);

/// @brief A Stable Diffusion text encoder's width, which names the family an embedding (or a
/// lora_diffusion text-encoder part) was made for.
struct EncoderWidth {
  std::uint64_t width;
  std::string_view id;
};

/// @brief CLIP ViT-L 768 (SD 1.x), OpenCLIP ViT-H 1024 (SD 2.x).
inline constexpr EncoderWidth kEncoderWidths[] = {{768, "sd1"}, {1024, "sd2"}};

/// @brief The family whose text encoder is `width` wide ("" when none).
std::string_view encoder_width_family(std::uint64_t width);

/// @brief Where a rule's keys are looked up.
enum class Domain : std::uint8_t {
  Diffusion,  ///< a diffusion model's keys, under any of kDiffusionRoots
  Text,       ///< a language model's keys, under any of kTextRoots
  Kohya,      ///< module names of a kohya-style adapter (lora_unet_..., lora_te1_...)
};

/// @brief Prefixes a diffusion model's keys may carry: checkpoints, ComfyUI and diffusers saves.
/// (An adapter's weights are matched without PEFT's "base_model.model.": see adapter_modules.h.)
inline constexpr std::array<std::string_view, 7> kDiffusionRoots{
    "model.diffusion_model.", "diffusion_model.", "model.model.", "net.", "unet.", "transformer.", ""};

/// @brief Prefixes a transformers model's keys may carry: bare, wrapped, multimodal, and the
/// base model's name that task heads (…ForSequenceClassification) put first.
inline constexpr std::array<std::string_view, 9> kTextRoots{
    "",      "model.",      "transformer.", "language_model.", "language_model.model.", "model.language_model.",
    "bert.", "distilbert.", "vit."};

/// @brief A language model's token embedding, [vocab, hidden] in every family listed (under
/// any of kTextRoots).
inline constexpr std::array<std::string_view, 7> kEmbeddingKeys{"embed_tokens.weight",
                                                                "wte.weight",
                                                                "word_embeddings.weight",
                                                                "shared.weight",
                                                                "embeddings.word_embeddings.weight",
                                                                "backbone.embeddings.weight",
                                                                "gpt_neox.embed_in.weight"};

/// @brief A mixture of experts' router, [experts, hidden] (under any of kTextRoots).
inline constexpr std::array<std::string_view, 2> kRouterKeys{"layers.0.block_sparse_moe.gate.weight",
                                                             "layers.0.mlp.gate.weight"};

/// @brief A key that must be present; with `dim` >= 0, its shape[dim] must equal `value`; with
/// `ratio`, shape[0] must be `ratio` x shape[1]. An `absent` key must not be there: it tells a
/// model from its distilled copy with fewer blocks, so it holds only in an index of names as
/// written (a pattern index has every block when it has one).
struct Clue {
  std::string_view key;  ///< empty: no clue
  int dim = -1;
  std::uint64_t value = 0;
  std::uint64_t ratio = 0;
  bool absent = false;
};

/// @brief One rule of the table.
struct FamilyRule {
  std::string_view id;       ///< a kFamilies id
  std::string_view variant;  ///< "" when the rule names none
  Domain domain;
  std::array<Clue, 3> clues;
  /// For an adapter's weights: how many of the first clues suffice (0: all). An adapter has the
  /// weights it adapts (attention, MLP), never a model's embeddings or norms.
  std::uint8_t adapter_clues = 0;
};

/// @brief The rules, most specific first (see the comments for why the order matters).
extern const std::span<const FamilyRule> kFamilyRules;

/// @brief A family named by metadata: a value (or, ending in '*', a value prefix) of a key.
struct MetadataFamily {
  std::string_view key;
  std::string_view value;
  std::string_view id;
  std::string_view variant;
};

/// @brief Metadata values that name a family, first match wins.
extern const std::span<const MetadataFamily> kMetadataFamilies;

}  // namespace safetensors
