// A Report packed for JavaScript (a TableWriter table, decoded by web/header_table.js).
//
// Sequence: reference error (index into kReferenceErrorNames, 0 for none; when not 0,
// its message, has tensor, [tensor]); file size; header length; data start; findings;
// metadata (-1 for none, else count, then key, value pairs); tensors (count, then per
// tensor: name, dtype index, ndim, dims, begin, end, exact flag, [ndim dims as decimal
// strings when a dim is above 2^53-1]); has card, [the model card as JSON, module count,
// per module: parent index, name, separator code, tensors, parameters, bytes; then per
// tensor its module index].
// Findings (also the data scan's): count, then per finding: code index (into
// kFindingCodes), message, has tensor, [tensor].
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "analysis/report.h"
#include "card/model_card.h"
#include "wasm/table_writer.h"

namespace safetensors {

/// @brief Packs `report`, and `card` when not null, into `out` (resized, capacity reused).
void encode_header_table(const Report& report, const ModelCard* card, std::vector<std::uint8_t>& out);

/// @brief Packs only `card` (the part after "has card" above) into `out`.
void encode_card_table(const ModelCard& card, std::vector<std::uint8_t>& out);

/// @brief Appends `findings` to a table being written.
void write_findings(TableWriter& w, std::span<const Finding> findings);

}  // namespace safetensors
