// Builds the model card of a loadable file from its analysed header (no tensor data).
#pragma once

#include <span>

#include "analysis/report.h"
#include "card/model_card.h"
#include "card/tensor_view.h"

namespace safetensors {

/// @brief The card of a file's tensors (data order) and metadata.
ModelCard build_card(std::span<const TensorView> tensors, const Metadata& metadata);

/// @brief The card of `report` (its tensors in data order, its metadata).
inline ModelCard build_card(const Report& report) { return build_card(views_of(report.tensors), report.metadata); }

}  // namespace safetensors
