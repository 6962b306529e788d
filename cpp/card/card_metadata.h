// The parts of the card that come from metadata conventions: ModelSpec `modelspec.*`
// (https://github.com/Stability-AI/ModelSpec), kohya `ss_*`/`sshs_*` (kohya-ss/sd-scripts,
// train_network.py and library/train_util.py) and the additional-networks editor's `ssmd_*`
// (kohya-ss/sd-webui-additional-networks, scripts/metadata_editor.py). Embedded hashes are the
// analysis' (cpp/analysis/embedded_hashes.h).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "card/metadata_view.h"
#include "card/model_card.h"

namespace safetensors {

/// @brief Title, description, author, license, date and source (first convention that has it).
void read_descriptive_fields(const MetadataView& meta, ModelCard& card);

/// @brief ss_tag_frequency summed over folders, most frequent first (at most kMaxTags).
std::vector<Tag> summed_tags(const MetadataView& meta);
inline constexpr std::size_t kMaxTags = 250;

/// @brief Trigger words, best first: modelspec.trigger_phrase, ssmd_keywords, `tokens`
/// (embedded textual-inversion tokens), phrases of ss_training_comment, the most frequent
/// tags, then class tokens of the datasets. Repeats (ignoring case) are dropped.
std::vector<TriggerWord> trigger_words(const MetadataView& meta, std::span<const Tag> tags,
                                       std::span<const std::string> tokens);

/// @brief The base model named by kohya's ss_sd_model_* and ss_base_model_version, or ModelSpec.
std::optional<BaseModel> base_model(const MetadataView& meta);

/// @brief Every ss_* value (but the JSON-valued ones) with "True"/"False" as booleans,
/// "None" as null and numbers as numbers; keys without the "ss_" prefix. nullopt without ss_* keys.
std::optional<std::vector<std::pair<std::string, TrainingValue>>> training_values(const MetadataView& meta);

}  // namespace safetensors
