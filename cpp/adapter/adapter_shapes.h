// Whether the parts of one adapted module fit the base weight they change: LoRA down [r, in]
// (conv [r, in, kh, kw]) and up [out, r] (conv [out, r, 1, 1]), MLX's [in, r] and [r, out],
// LoHa's and LoKr's factors, DoRA's magnitude, a full difference. Shapes of the methods as
// adapter_parts.h cites them.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "adapter/adapter_parts.h"

namespace safetensors {

/// @brief One tensor of an adapted module.
struct ModulePart {
  const AdapterPart* part = nullptr;
  std::span<const std::uint64_t> shape;
};

/// @brief The weight the module changes: its shape, the rows of it the module is (`rows` from
/// `row_offset`, a part of a fused weight; `rows` 0: the whole weight), and its name in the base.
struct WeightShape {
  std::span<const std::uint64_t> shape;
  std::uint64_t row_offset = 0;
  std::uint64_t rows = 0;
  std::string_view name;
};

/// @brief Why `parts` do not fit `weight`; "" when they do.
std::string shape_mismatch(std::span<const ModulePart> parts, const WeightShape& weight);

}  // namespace safetensors
