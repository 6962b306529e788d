// Builds the model card of a loadable file from its analysed header (no tensor data).
#pragma once

#include "analysis/report.h"
#include "card/model_card.h"

namespace safetensors {

/// @brief The card of `report` (its tensors in data order, its metadata).
ModelCard build_card(const Report& report);

}  // namespace safetensors
