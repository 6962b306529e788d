// The element types torch saves, one table: the dtype's name (the global `torch.<name>` a
// pickle names for it), its legacy typed storage class (`torch.<Storage>`, empty for the dtypes
// torch saves as UntypedStorage plus a dtype), its size, and the safetensors dtype it converts
// to. Facts from torch/storage.py (_dtype_to_storage_type_map, _new_dtypes) and torch/_utils.py
// (_element_size).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "format/dtype.h"

namespace safetensors::pickle {

/// @brief One torch dtype.
struct TorchDtypeInfo {
  std::string_view name;             ///< e.g. "float32": `torch.float32`
  std::string_view storage;          ///< e.g. "FloatStorage"; empty when saved as UntypedStorage
  std::uint8_t element_size;         ///< bytes per element
  std::optional<Dtype> safetensors;  ///< the safetensors dtype, when there is one
};

/// @brief Number of rows of kTorchDtypes.
inline constexpr int kTorchDtypeCount = 32;

/// @brief The table; a row's index is its TorchDtype id.
extern const std::array<TorchDtypeInfo, kTorchDtypeCount> kTorchDtypes;

/// @brief A row of kTorchDtypes.
using TorchDtype = std::uint8_t;

/// @brief The dtype of `torch.<storage_class>` (e.g. "HalfStorage"), if it is a typed storage.
std::optional<TorchDtype> torch_dtype_from_storage(std::string_view storage_class);

/// @brief The dtype named `torch.<name>` (e.g. "float8_e4m3fn").
std::optional<TorchDtype> torch_dtype_from_name(std::string_view name);

/// @brief The row of `dtype`.
inline const TorchDtypeInfo& torch_dtype_info(TorchDtype dtype) { return kTorchDtypes[dtype]; }

}  // namespace safetensors::pickle
