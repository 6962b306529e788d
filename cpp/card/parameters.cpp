// Parameter counting (see parameters.h).
#include "card/parameters.h"

#include <array>
#include <string>
#include <string_view>
#include <unordered_map>

namespace safetensors {
namespace {

// A tensor's module (the name up to its last '.') and its own name.
std::pair<std::string_view, std::string_view> split_last(std::string_view name) {
  const std::size_t dot = name.rfind('.');
  if (dot == std::string_view::npos) return {std::string_view(), name};
  return {name.substr(0, dot), name.substr(dot + 1)};
}

struct Estimate {
  std::string scheme;
  std::string note;
  double packed = 0;    // elements of the packed tensors as stored
  double unpacked = 0;  // the same weights unpacked
  double aux = 0;       // scales, zeros, quantization state: not parameters of the model
  bool known = true;    // false when the header does not determine the unpacked count
};

std::uint64_t dim(const TensorView* t, std::size_t i) { return t && i < t->shape.size() ? t->shape[i] : 0; }

}  // namespace

double element_count(std::span<const std::uint64_t> shape) {
  double n = 1;
  for (std::uint64_t d : shape) n *= static_cast<double>(d);
  return n;
}

Parameters count_parameters(std::span<const TensorView> tensors) {
  Parameters p;
  std::array<double, kDtypeCount> by_dtype{};
  std::array<bool, kDtypeCount> seen{};
  // Modules with a quantization part, and a map from name to tensor for the lookups.
  std::unordered_map<std::string_view, const TensorView*> by_name;
  bool quantized_names = false;
  for (const TensorView& t : tensors) {
    const double n = element_count(t.shape);
    p.total += n;
    by_dtype[static_cast<std::size_t>(t.dtype)] += n;
    seen[static_cast<std::size_t>(t.dtype)] = true;
    const std::string_view own = split_last(t.name).second;
    quantized_names = quantized_names || own == "qweight" || own == "SCB" || own == "biases" ||
                      own.ends_with("_blocks") || own.starts_with("bitsandbytes__");
  }
  for (int d = 0; d < kDtypeCount; ++d) {
    if (seen[d]) p.by_dtype.emplace_back(std::string(dtype_name(static_cast<Dtype>(d))), by_dtype[d]);
  }
  if (!quantized_names) return p;

  for (const TensorView& t : tensors) by_name.emplace(t.name, &t);
  const auto find = [&](std::string_view module, std::string_view own) -> const TensorView* {
    const auto it = by_name.find(std::string(module) + "." + std::string(own));
    return it == by_name.end() ? nullptr : it->second;
  };
  Estimate e;
  for (const TensorView& t : tensors) {
    const auto [module, own] = split_last(t.name);
    const double n = element_count(t.shape);
    if (own == "qweight") {
      // GPTQ: qweight [in*bits/32, out]; AWQ: [in, out*bits/32]. Both: qzeros
      // [groups, out*bits/32], scales [groups, out], so bits = 32 * qzeros[1] / scales[1].
      const TensorView* zeros = find(module, "qzeros");
      const TensorView* scales = find(module, "scales");
      const std::uint64_t z = dim(zeros, 1), s = dim(scales, 1);
      if (!zeros || !scales || s == 0 || (32 * z) % s != 0 || 32 * z / s == 0 || 32 % (32 * z / s) != 0) {
        e.known = false;
        if (e.scheme.empty()) e.scheme = "gptq";
        continue;
      }
      const std::uint64_t bits = 32 * z / s;
      if (e.scheme.empty()) {
        e.scheme = dim(&t, 1) == s ? "gptq" : "awq";
        e.note = std::to_string(bits) + "-bit weights packed " + std::to_string(32 / bits) + " per int32";
      }
      e.packed += n;
      e.unpacked += n * static_cast<double>(32 / bits);
      e.aux += element_count(zeros->shape) + element_count(scales->shape);
      if (const TensorView* g = find(module, "g_idx")) e.aux += element_count(g->shape);
    } else if (own.starts_with("bitsandbytes__") && module.ends_with(".quant_state")) {
      // bitsandbytes 4-bit: "<m>.weight" is U8 holding two values per byte, and
      // "<m>.weight.quant_state.bitsandbytes__nf4" (or __fp4) its packed state.
      const std::string_view weight = module.substr(0, module.size() - 12);
      const auto it = by_name.find(weight);
      if (e.scheme.empty()) {
        e.scheme = "bitsandbytes-4bit";
        e.note = std::string(own.substr(14)) + " weights packed 2 per byte";
      }
      e.aux += n;
      if (it != by_name.end()) {
        e.packed += element_count(it->second->shape);
        e.unpacked += 2 * element_count(it->second->shape);
      }
      for (const char* extra : {"absmax", "quant_map", "nested_absmax", "nested_quant_map"}) {
        if (const TensorView* x = find(weight, extra)) e.aux += element_count(x->shape);
      }
    } else if (own == "SCB") {
      // bitsandbytes 8-bit: int8 weights, one value each; SCB holds the scales.
      if (e.scheme.empty()) {
        e.scheme = "bitsandbytes-8bit";
        e.note = "int8 weights, one value per byte";
      }
      e.aux += n;
      if (const TensorView* f = find(module, "weight_format")) e.aux += element_count(f->shape);
    } else if (own == "biases" && t.dtype != Dtype::U32) {
      // MLX: U32 weights with per-group scales and biases; the bit width and group size are
      // only in config.json.
      const TensorView* w = find(module, "weight");
      if (!w || w->dtype != Dtype::U32 || !find(module, "scales")) continue;
      if (e.scheme.empty()) {
        e.scheme = "mlx";
        e.note =
            "MLX packs 2-8-bit values into uint32; the bit width and group size are in config.json, not in this file";
      }
      e.known = false;
    } else if (own.ends_with("_blocks") && t.dtype == Dtype::U8) {
      // MXFP4 (gpt-oss): blocks of 32 FP4 values in 16 bytes, one U8 scale per block.
      const std::string stem(own.substr(0, own.size() - 7));
      const TensorView* scales = find(module, stem + "_scales");
      if (!scales) continue;
      if (e.scheme.empty()) {
        e.scheme = "mxfp4";
        e.note = "FP4 values packed 2 per byte in blocks of 32, with one scale byte per block";
      }
      e.packed += n;
      e.unpacked += 2 * n;
      e.aux += element_count(scales->shape);
    }
  }
  if (e.scheme.empty()) return p;
  Quantized q;
  q.scheme = e.scheme;
  if (e.known) {
    q.estimated_total = p.total - e.packed - e.aux + e.unpacked;
    q.note = e.note + "; scales and zero points are not counted";
  } else {
    q.note = e.note.empty() ? "the header does not give the packing of every quantized weight" : e.note;
  }
  p.quantized = std::move(q);
  return p;
}

}  // namespace safetensors
