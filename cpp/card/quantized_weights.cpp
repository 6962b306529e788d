// Unpacked names and shapes of GPTQ and AWQ weights (see quantized_weights.h).
#include "card/quantized_weights.h"

#include <string>
#include <string_view>
#include <unordered_map>

namespace safetensors {

std::vector<TensorEntry> unpacked_weights(std::span<const TensorView> tensors) {
  std::vector<TensorEntry> out;
  constexpr std::string_view kPacked = ".qweight";
  std::unordered_map<std::string_view, const TensorView*> by_name;
  for (const TensorView& t : tensors) {
    if (t.name.ends_with(kPacked)) by_name.emplace(t.name, &t);
  }
  if (by_name.empty()) return out;
  for (const TensorView& t : tensors) by_name.emplace(t.name, &t);
  const auto two_dims = [&](std::string_view module, std::string_view part) -> const TensorView* {
    const auto it = by_name.find(std::string(module) + std::string(part));
    return it != by_name.end() && it->second->shape.size() == 2 ? it->second : nullptr;
  };
  for (const TensorView& t : tensors) {
    if (!t.name.ends_with(kPacked) || t.shape.size() != 2) continue;
    const std::string_view module = t.name.substr(0, t.name.size() - kPacked.size());
    const TensorView* zeros = two_dims(module, ".qzeros");
    const TensorView* scales = two_dims(module, ".scales");
    if (!zeros || !scales) continue;
    const std::uint64_t cols = scales->shape[1], packed_cols = zeros->shape[1];
    if (cols == 0 || packed_cols == 0 || (32 * packed_cols) % cols != 0) continue;
    const std::uint64_t bits = 32 * packed_cols / cols;
    if (bits == 0 || 32 % bits != 0) continue;
    std::uint64_t in = 0;
    if (t.shape[1] == cols) {
      in = t.shape[0] * 32 / bits;  // GPTQ
    } else if (t.shape[1] == packed_cols) {
      in = t.shape[0];  // AWQ
    } else {
      continue;
    }
    TensorEntry w;
    w.name = std::string(module) + ".weight";
    w.dtype = scales->dtype;
    w.shape = {cols, in};
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace safetensors
