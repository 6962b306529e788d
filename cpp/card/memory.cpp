// The memory estimate (see memory.h).
#include "card/memory.h"

#include <array>
#include <string>

namespace safetensors {

Memory memory_estimate(std::span<const TensorView> tensors, const Parameters& parameters) {
  Memory m;
  std::array<double, kDtypeCount> by_dtype{};
  std::array<bool, kDtypeCount> seen{};
  for (const TensorView& t : tensors) {
    const double bytes = static_cast<double>(t.end - t.begin);
    m.bytes += bytes;
    by_dtype[static_cast<std::size_t>(t.dtype)] += bytes;
    seen[static_cast<std::size_t>(t.dtype)] = true;
  }
  for (int d = 0; d < kDtypeCount; ++d) {
    if (seen[d]) m.by_dtype.emplace_back(std::string(dtype_name(static_cast<Dtype>(d))), by_dtype[d]);
  }
  const std::optional<double> weights =
      parameters.quantized ? parameters.quantized->estimated_total : std::optional<double>(parameters.total);
  if (weights) {
    m.at_16_bit = *weights * 2;
    m.at_8_bit = *weights;
    m.at_4_bit = *weights / 2;
  }
  return m;
}

}  // namespace safetensors
