// The card as JSON, the form in which it crosses to JavaScript (JSON.parse there gives the
// ModelCard of web/index.d.ts, field for field), but for the module tree, which is large and
// travels as numbers in the packed card table (cpp/wasm/card_table.h).
#pragma once

#include <string>

#include "card/model_card.h"

namespace safetensors {

/// @brief Appends `card` (all but `modules`) as compact JSON to `out`.
void write_card_json(const ModelCard& card, std::string& out);

}  // namespace safetensors
