// Whether an adapter (LoRA, LoHa, LoKr, DoRA, ...) fits a base model, from the two headers alone:
// each adapted module is looked up in the base under the names of base_modules.h, and its parts'
// shapes are checked against the base weight's [out, in] (or [out, in, kh, kw]).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "card/tensor_view.h"
#include "format/header.h"

namespace safetensors {

/// @brief An adapted module that does not fit: the adapter's name for it and why.
struct AdapterMismatch {
  std::string key;     ///< the module as the adapter names it ("" for the file as a whole)
  std::string reason;  ///< a sentence for people
};

/// @brief The verdict.
struct AdapterCheck {
  std::string adapter_format;  ///< kohya, peft, diffusers, mlx, ...; "" when the file is not an adapter
  std::string adapter_type;    ///< lora, locon, loha, lokr, dora, ...; "" likewise
  std::string base_format;     ///< ldm, diffusers, bfl, transformers, unknown (base_modules.h)
  std::size_t modules = 0;     ///< adapted modules
  std::size_t matched = 0;     ///< of them, found in the base with fitting shapes
  std::vector<AdapterMismatch> unmatched;
  bool compatible() const { return modules > 0 && matched == modules && unmatched.empty(); }
};

/// @brief Checks the adapter's tensors (and metadata) against the base's tensors.
AdapterCheck check_adapter(std::span<const TensorView> adapter, const Metadata& adapter_metadata,
                           std::span<const TensorView> base);

/// @brief The verdict as JSON (the CheckAdapterResult type of web/index.d.ts).
void write_adapter_check_json(const AdapterCheck& check, std::string& out);

}  // namespace safetensors
