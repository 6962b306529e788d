// Runs the family tables of family_rules.h over a file's keys, an embedding's text-encoder
// widths, and metadata.
#pragma once

#include <optional>
#include <span>

#include "adapter/adapter_detect.h"
#include "card/family_rules.h"
#include "card/key_index.h"
#include "card/metadata_view.h"
#include "card/model_card.h"
#include "card/tensor_view.h"

namespace safetensors {

/// @brief The first rule of `domain` whose clues all hold in `index` (for an `adapter`'s
/// weights, its first `adapter_clues`), with the keys and shapes that matched as evidence.
std::optional<Family> match_family(const KeyIndex& index, Domain domain, bool adapter = false);

/// @brief Every name an exact KeyIndex is asked for: each clue key under each root of its
/// domain, and kEmbeddingKeys and kRouterKeys under each text root.
const NameSet& exact_rule_keys();

/// @brief The family the first telling clue names (SDXL by clip_g's name, else kEncoderWidths),
/// with its tensors' names and shapes as evidence.
std::optional<Family> family_from_encoder(std::span<const TensorView> tensors, std::span<const EncoderClue> clues);

/// @brief The family the metadata names (kMetadataFamilies), with the key and value as evidence.
std::optional<Family> family_from_metadata(const MetadataView& meta);

/// @brief Where the tensors and the metadata disagree, the tensors win, except where the
/// metadata names a model trained from the one the tensors show (Chroma from FLUX.1):
/// their keys are the same. Either way the evidence of both is kept.
std::optional<Family> combine_families(std::optional<Family> from_keys, std::optional<Family> from_metadata);

/// @brief The family's first layer key's prefix, e.g. "model.layers." for Llama's
/// "model.layers.0.self_attn.q_proj.weight" (empty when the rule's first key has no number).
std::string layer_prefix(const Family& family);

}  // namespace safetensors
