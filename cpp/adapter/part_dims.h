// Where each adapter part role's sizes sit in its shape (rank, out, in, a convolution's kernel):
// the one table read by the card (adapter_detect.cpp: the adapted weight's [out, in] and rank)
// and by check-adapter (adapter_shapes.cpp: the parts against the base weight). Shapes of the
// methods as adapter_parts.h cites them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <span>

#include "adapter/adapter_parts.h"

namespace safetensors {

/// @brief No such dimension in a role's shape.
inline constexpr std::uint8_t kNoDim = 0xFF;

/// @brief Which weight a part's out and in describe.
enum class DimSlot : std::uint8_t {
  Module,  ///< the adapted weight itself (LoRA, MLX, a full difference)
  First,   ///< LoHa's/LoKr's first factor (w1)
  Second,  ///< their second factor (w2)
};

/// @brief Where one role's sizes sit in its shape (indices, kNoDim when the role has none).
struct RoleDims {
  PartRole role;
  std::uint8_t rank = kNoDim, out = kNoDim, in = kNoDim;
  std::uint8_t kernel = kNoDim;  ///< first of a convolution's two kernel dimensions (kh, kw)
  DimSlot slot = DimSlot::Module;
  bool leads = false;        ///< its rank is the module's; other parts' only when none leads
  bool whole_input = false;  ///< a conv factor: in × kh × kw may follow in (InputSpan::Whole)
};

// clang-format off
/// @brief The table, in PartRole's order.
inline constexpr RoleDims kRoleDims[] = {
    //  role           rank    out     in      kernel  slot              leads  whole_input
    {PartRole::Down,  0,      kNoDim, 1,      2,      DimSlot::Module,  true,  false},  // [rank, in, kh, kw]
    {PartRole::Up,    1,      0,      kNoDim, kNoDim, DimSlot::Module,  false, false},  // [out, rank, 1, 1]
    {PartRole::DownT, 1,      kNoDim, 0,      kNoDim, DimSlot::Module,  true,  false},  // [in, rank]
    {PartRole::UpT,   0,      1,      kNoDim, kNoDim, DimSlot::Module,  false, false},  // [rank, out]
    {PartRole::Mid},
    {PartRole::Alpha},
    {PartRole::Scale},
    {PartRole::W1A,   1,      0,      kNoDim, kNoDim, DimSlot::First,   true,  false},  // [out1, rank]
    {PartRole::W1B,   kNoDim, kNoDim, 1,      kNoDim, DimSlot::First,   false, true},   // [rank, in1, ...]
    {PartRole::W1,    kNoDim, 0,      1,      kNoDim, DimSlot::First,   false, true},   // [out1, in1, ...]
    {PartRole::W2A,   1,      0,      kNoDim, kNoDim, DimSlot::Second,  false, false},  // [out2, rank]
    {PartRole::W2B,   kNoDim, kNoDim, 1,      kNoDim, DimSlot::Second,  false, true},   // [rank, in2, ...]
    {PartRole::W2,    kNoDim, 0,      1,      kNoDim, DimSlot::Second,  false, true},   // [out2, in2, ...]
    {PartRole::Other},
    {PartRole::Full,  kNoDim, 0,      1,      kNoDim, DimSlot::Module,  false, true},   // [out, in, ...]
};
// clang-format on

consteval bool role_dims_in_order() {
  for (std::size_t i = 0; i < std::size(kRoleDims); ++i)
    if (static_cast<std::size_t>(kRoleDims[i].role) != i) return false;
  return true;
}
static_assert(role_dims_in_order(), "kRoleDims is indexed by PartRole");

/// @brief Where `role`'s sizes sit.
constexpr const RoleDims& role_dims(PartRole role) { return kRoleDims[static_cast<std::size_t>(role)]; }

/// @brief How much of a shape `in` covers.
enum class InputSpan : std::uint8_t {
  Channels,  ///< the in dimension alone: the card's [out, in] of the adapted weight
  Whole,     ///< for whole_input roles, in times every dimension after it: check-adapter compares
             ///< a conv factor's in × kh × kw with the base weight's
};

/// @brief A part's sizes (0 where its role has none or its shape is too short).
struct PartDims {
  std::uint64_t rank = 0, out = 0, in = 0;
};

/// @brief Dimension `i` of `shape`, 0 when absent.
constexpr std::uint64_t dim_at(std::span<const std::uint64_t> shape, std::uint8_t i) {
  return i < shape.size() ? shape[i] : 0;
}

/// @brief The sizes of a part of role `r` with this shape.
constexpr PartDims part_dims(const RoleDims& r, std::span<const std::uint64_t> shape, InputSpan span) {
  PartDims d{dim_at(shape, r.rank), dim_at(shape, r.out), dim_at(shape, r.in)};
  if (span == InputSpan::Whole && r.whole_input && r.in < shape.size())
    d.in = std::accumulate(shape.begin() + r.in, shape.end(), std::uint64_t{1}, std::multiplies<>());
  return d;
}

/// @brief Whether a part of role `r` is a convolution with a kernel larger than 1x1.
constexpr bool wide_kernel(const RoleDims& r, std::span<const std::uint64_t> shape) {
  return r.kernel != kNoDim && shape.size() == r.kernel + 2u && (shape[r.kernel] > 1 || shape[r.kernel + 1] > 1);
}

}  // namespace safetensors
