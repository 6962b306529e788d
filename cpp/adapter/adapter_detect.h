// Adapters (LoRA and its relatives) and textual-inversion embeddings, from tensor names
// and shapes. Also derives, for each adapted module, the key and [out, in] shape of the
// weight it changes, so that the family rules recognise the base model of an adapter.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "adapter/adapter_parts.h"
#include "card/metadata_view.h"
#include "card/model_card.h"
#include "card/tensor_view.h"
#include "format/header.h"

namespace safetensors {

/// @brief Tensors that tell which text encoder an embedding (or lora_diffusion's text-encoder
/// part) was made for: by its width, or by their names (SDXL's clip_g and clip_l). The card's
/// families read them (detect_family.h); the scan decides no family.
struct EncoderClue {
  std::vector<std::uint32_t> tensors;  ///< indices of the tensors that tell, in the evidence's order
  std::uint64_t width = 0;             ///< the first tensor's width, when `by_name` is false
  bool by_name = false;                ///< the names tell SDXL (clip_g)
  std::string_view note;               ///< how the width tells ("token width"), for the evidence
};

/// @brief What the adapter scan found.
struct AdapterScan {
  std::optional<Adapter> adapter;         ///< set when most tensors are adapter parts
  bool kohya_names = false;               ///< module names use kohya's lora_unet_/lora_te_ prefixes
  std::vector<TensorEntry> base_weights;  ///< for adapters: the adapted weights as the base names them, [out, in] or []
  std::vector<EncoderClue> encoder_clues;    ///< embeddings, lora_diffusion: in file order, the first telling decides
  bool embedding = false;                    ///< a textual inversion (or lora_diffusion tokens only)
  std::vector<std::string> embedded_tokens;  ///< lora_diffusion tokens (<s1>, ...) stored as tensors
};

/// @brief The adapter part (adapter_parts.h) whose suffix `name` ends with, or null.
const AdapterPart* part_of(std::string_view name);

/// @brief Scans names and shapes (and the network settings in `meta`).
AdapterScan scan_adapter(std::span<const TensorView> tensors, const MetadataView& meta);

}  // namespace safetensors
