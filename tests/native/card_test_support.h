// Reports built directly (names, shapes, metadata) for the card tests: the card reads only
// the header, so no data bytes are needed, whatever the shapes.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "analysis/report.h"
#include "card/build_card.h"
#include "card/parameters.h"
#include "tree/module_tree.h"

namespace safetensors::testing {

struct T {
  std::string name;
  std::vector<std::uint64_t> shape;
  Dtype dtype = Dtype::F16;
};

/// @brief A loadable report of `tensors` (contiguous, in the order given) and `metadata`.
inline Report report_of(const std::vector<T>& tensors, Metadata metadata = {}) {
  Report r;
  std::uint64_t offset = 0;
  for (const T& t : tensors) {
    TensorEntry e;
    e.name = t.name;
    e.dtype = t.dtype;
    e.shape = t.shape;
    std::uint64_t n = dtype_element_bytes(t.dtype);
    for (std::uint64_t d : t.shape) n *= d;
    e.begin = offset;
    e.end = offset += n;
    r.tensors.push_back(std::move(e));
  }
  r.has_metadata = !metadata.empty();
  r.metadata = std::move(metadata);
  return r;
}

/// @brief The card's parts over a report's tensors (the core's functions take views).
inline Parameters count_parameters(const std::vector<TensorEntry>& tensors) {
  return safetensors::count_parameters(views_of(tensors));
}
inline ModuleTree module_tree(const std::vector<TensorEntry>& tensors, bool kohya_names) {
  return safetensors::module_tree(views_of(tensors), kohya_names);
}

inline ModelCard card_of(const std::vector<T>& tensors, Metadata metadata = {}) {
  return build_card(report_of(tensors, std::move(metadata)));
}

/// @brief The card's family id, or "none".
inline std::string family_id(const ModelCard& c) { return c.family ? c.family->id : "none"; }

/// @brief One 4-bit linear layer of `in` x `out` in groups of 128, as AutoGPTQ (qweight
/// [in / 8, out], g_idx [in]) or AutoAWQ (qweight [in, out / 8]) store it; qzeros [in / 128,
/// out / 8] and scales [in / 128, out] in both.
inline std::vector<T> packed_linear(const std::string& module, std::uint64_t in, std::uint64_t out, bool awq) {
  std::vector<T> t = {
      {module + ".qweight", awq ? std::vector<std::uint64_t>{in, out / 8} : std::vector<std::uint64_t>{in / 8, out},
       Dtype::I32},
      {module + ".qzeros", {in / 128, out / 8}, Dtype::I32},
      {module + ".scales", {in / 128, out}, Dtype::F16}};
  if (!awq) t.push_back({module + ".g_idx", {in}, Dtype::I32});
  return t;
}

}  // namespace safetensors::testing
