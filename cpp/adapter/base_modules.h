// The modules of a base model that an adapter may change, under every name an adapter may give
// them: the base's own, the other layout's (LDM or diffusers UNet, open_clip or transformers
// CLIP), with kohya's '_' for '.', and without a leading wrapper (`model.`, `transformer.`).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "card/tensor_view.h"

namespace safetensors {

/// @brief The parts of a Stable Diffusion-like model, as its single-file checkpoint groups them.
enum class ModelPart : std::uint8_t { Whole, Unet, TextEncoder, TextEncoder2, TextEncoder3, Vae };

/// @brief A part's name for people ("unet", "text_encoder_2"; "model" for Whole).
std::string_view part_name(ModelPart part);

/// @brief The weight an adapted module changes: a base tensor, or `rows` of its rows from
/// `row_offset` (a part of a fused weight: open_clip's q, k, v; FLUX's qkv and linear1).
struct BaseWeight {
  std::uint32_t tensor = 0;
  std::uint64_t row_offset = 0;
  std::uint64_t rows = 0;   ///< 0: the whole weight
  std::string_view module;  ///< the base's name for the module (tensor name without `.weight`)
  /// For a module the base holds as several tensors stacked by rows (BFL's FLUX qkv as diffusers'
  /// to_q, to_k, to_v): their shape together, and their names; empty otherwise.
  std::span<const std::uint64_t> stacked_shape;
  std::string_view stacked_name;
};

/// @brief Every module of the base, by the names above.
class BaseModules {
 public:
  explicit BaseModules(std::span<const TensorView> tensors);

  /// @brief The module `name` (dots or kohya's underscores) in `part`.
  std::optional<BaseWeight> find(ModelPart part, std::string_view name) const;
  /// @brief The module `name` (dots) in `part`, ignoring a wrapper before it on either side.
  std::optional<BaseWeight> find_unwrapped(ModelPart part, std::string_view name) const;
  /// @brief Whether the base has modules in `part`.
  bool has(ModelPart part) const { return (parts_ >> static_cast<int>(part)) & 1U; }
  /// @brief The base's layout: ldm, diffusers, bfl, transformers, or unknown.
  std::string_view format() const { return format_; }

 private:
  void add(ModelPart part, std::string_view name, const BaseWeight& weight, bool unwrapped = false);
  struct Stacking;
  void stack(ModelPart part, std::string_view name, const Stacking& parts, std::span<const TensorView> tensors);
  std::unordered_map<std::string, BaseWeight> names_, unwrapped_;
  std::unordered_map<std::string, int> unwrapped_count_;
  std::deque<std::array<std::uint64_t, 2>> stacked_shapes_;
  std::deque<std::string> stacked_names_;
  std::uint32_t parts_ = 0;
  std::string_view format_ = "unknown";
};

}  // namespace safetensors
