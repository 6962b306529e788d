// A ModelCard and a module tree packed for JavaScript (TableWriter tables, decoded by
// web/header/header_table.js).
//
// Card table: the card as JSON (cpp/card/card_json.h), then 1 when the module tree splits
// names as kohya's, else 0, then how many tensors were sized from dtype and shape because
// their data_offsets could not be trusted (TableHeader::sized_from_shapes).
// Module tree table: node count, then per node: parent index, name, separator code, tensors,
// parameters, bytes; then per tensor (data order) its node index.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "card/model_card.h"

namespace safetensors {

/// @brief Packs `card` into `out` (resized, its capacity reused); `sized_from_shapes` as above.
void encode_card_table(const ModelCard& card, std::vector<std::uint8_t>& out, std::size_t sized_from_shapes = 0);

/// @brief Packs `tree` into `out` (resized, its capacity reused).
void encode_module_tree_table(const ModuleTree& tree, std::vector<std::uint8_t>& out);

}  // namespace safetensors
