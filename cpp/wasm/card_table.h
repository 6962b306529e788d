// A ModelCard packed for JavaScript (a TableWriter table, decoded by web/header_table.js).
//
// Sequence: the card as JSON (cpp/card/card_json.h); the module tree: node count, then per
// node: parent index, name, separator code, tensors, parameters, bytes; then per tensor
// (data order) its node index.
#pragma once

#include <cstdint>
#include <vector>

#include "card/model_card.h"

namespace safetensors {

/// @brief Packs `card` into `out` (resized, its capacity reused).
void encode_card_table(const ModelCard& card, std::vector<std::uint8_t>& out);

}  // namespace safetensors
