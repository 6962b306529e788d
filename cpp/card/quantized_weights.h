// The weights a packed quantized layout stands for, named and shaped as the unquantized model
// names them, so that the family rules (which name `<module>.weight`) read a GPTQ or AWQ file
// as they read the model it was made from.
#pragma once

#include <span>
#include <vector>

#include "card/tensor_view.h"
#include "format/header.h"

namespace safetensors {

/// @brief For each `<module>.qweight` with its `qzeros` and `scales` beside it, the entry
/// `<module>.weight` with the unpacked [out, in]: GPTQ packs qweight [in * bits / 32, out], AWQ
/// qweight [in, out * bits / 32]; scales are [groups, out] and qzeros [groups, out * bits / 32]
/// in both (AutoGPTQ's and AutoAWQ's QuantLinear). A module whose parts do not fit these
/// shapes gets no entry. Empty when the file has no qweight.
std::vector<TensorEntry> unpacked_weights(std::span<const TensorView> tensors);

}  // namespace safetensors
