// The model card: what a file is, read from its header and metadata alone (no tensor
// data). Built by build_card(); crosses to JavaScript as JSON (card_json.h), where its
// shape is the ModelCard type of web/index.d.ts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/embedded_hashes.h"
#include "card/card_civitai.h"

namespace safetensors {

/// @brief What kind of file it is.
enum class CardKind : std::uint8_t { Model, Adapter, Embedding, Unknown };

/// @brief The model family and what decided it.
struct Family {
  std::string id;                     ///< stable id, e.g. "sdxl", "flux1", "llama"
  std::string name;                   ///< for people, e.g. "Stable Diffusion XL"
  std::string variant;                ///< e.g. "dev"; empty when none
  std::vector<std::string> evidence;  ///< the keys, shapes or metadata that decided it
};

/// @brief An adapter's method and shape.
struct Adapter {
  std::string type;                  ///< lora, locon, loha, lokr, dora, glora, oft, diff, unknown
  std::string format;                ///< kohya, peft, diffusers, lora_diffusion, ...
  std::optional<double> rank;        ///< from metadata, else the most common rank in the shapes
  std::optional<double> alpha;       ///< from metadata
  std::vector<std::string> targets;  ///< the parts it changes: unet, text_encoder, transformer, ...
  std::string network_module;        ///< ss_network_module; empty when absent
  std::string alpha_tensor;          ///< a `.alpha` tensor to read when `alpha` is unknown
};

/// @brief An estimate for packed quantized layouts.
struct Quantized {
  std::string scheme;                     ///< gptq, awq, bitsandbytes-4bit, bitsandbytes-8bit, mlx, mxfp4
  std::optional<double> estimated_total;  ///< unpacked parameter count, when the header determines it
  std::string note;                       ///< how the estimate was made, or why there is none
};

/// @brief Parameter counts.
struct Parameters {
  double total = 0;                                      ///< Σ product(shape); a scalar counts 1
  std::vector<std::pair<std::string, double>> by_dtype;  ///< in dtype table order
  std::optional<Quantized> quantized;                    ///< for packed quantized layouts
};

/// @brief The weights' size in memory (see memory.h).
struct Memory {
  double bytes = 0;                                      ///< Σ data bytes as stored
  std::vector<std::pair<std::string, double>> by_dtype;  ///< in dtype table order
  std::optional<double> at_16_bit, at_8_bit, at_4_bit;   ///< the parameters at 2, 1 and 0.5 bytes each
};

/// @brief Sizes read from the shapes of a language model's tensors.
struct Architecture {
  std::optional<double> layers;
  std::optional<double> hidden_size;
  std::optional<double> vocab_size;
  std::optional<double> experts;
};

/// @brief A textual inversion's vectors: how many tokens' worth it adds, and how wide they are.
struct EmbeddingVectors {
  double vectors = 0;  ///< the first size of each vector tensor (1 for a 1-D one), summed
  double width = 0;    ///< the first vector tensor's last size (SDXL: clip_g's)
};

/// @brief A word or phrase that activates an adapter or embedding.
struct TriggerWord {
  std::string text;
  std::string source;           ///< the metadata key (or "tensor names") it came from
  std::optional<double> count;  ///< images tagged with it, where known
};

/// @brief A tag of the training captions, summed over folders.
struct Tag {
  std::string tag;
  double count = 0;
};

/// @brief What the file says about the model it was trained from.
struct BaseModel {
  std::optional<std::string> name;
  std::optional<std::string> hash;
  std::optional<std::string> version;
};

/// @brief A normalised training value: text, number, boolean or null.
struct TrainingValue {
  enum class Type : std::uint8_t { Null, Bool, Number, Text } type = Type::Null;
  bool flag = false;
  double number = 0;
  std::string text;
};

/// @brief A cover image or thumbnail that passed the checks of card_images.h.
struct CardImage {
  std::string mime;
  std::string source;  ///< the metadata key
  double bytes = 0;    ///< decoded size
  std::string data_url;
};

/// @brief A node of the module tree (see module_tree.h), in a flat list: the root first,
/// every parent before its children.
struct ModuleNode {
  std::uint32_t parent = 0;  ///< index of the parent node (0 for the root)
  std::string name;          ///< this level's part of the tensor names ("" for the root)
  char separator = 0;        ///< what joins it to the parent's path ('.' or '_'; 0 below the root)
  double tensors = 0;        ///< tensors at or below this node
  double parameters = 0;
  double bytes = 0;
};

/// @brief The module tree: its nodes, and for each tensor (data order) the node it is in.
struct ModuleTree {
  std::vector<ModuleNode> nodes;
  std::vector<std::uint32_t> node_of;
};

/// @brief The whole card.
struct ModelCard {
  CardKind kind = CardKind::Unknown;
  std::optional<Family> family;
  std::optional<Adapter> adapter;
  std::optional<EmbeddingVectors> embedding;  ///< textual inversions (kind Embedding) only
  Parameters parameters;
  Memory memory;
  Architecture architecture;
  std::optional<std::string> title, description, author, license, date, source;
  std::vector<TriggerWord> trigger_words;
  std::vector<Tag> tags;
  std::optional<BaseModel> base_model;
  std::optional<std::vector<std::pair<std::string, TrainingValue>>> training;
  std::vector<CardImage> images;
  std::vector<EmbeddedHash> embedded_hashes;  ///< cpp/analysis/embedded_hashes.h, as the analysis finds them
  std::optional<CivitaiRef> civitai;          ///< card_civitai.h
  /// How the module tree splits names (module_tree.h: kohya adapter names split at '_' too). The
  /// tree is built apart, on first use (web/ builds it when `card.modules` is first read).
  bool kohya_module_names = false;
};

}  // namespace safetensors
