// Dtype name lookup, and checks that the table in dtype.h is consistent.
#include "format/dtype.h"

namespace safetensors {
namespace {

constexpr bool table_is_consistent() {
  for (int i = 0; i < kDtypeCount; ++i) {
    const DtypeInfo& row = kDtypes[static_cast<std::size_t>(i)];
    if (row.name.empty() || row.bits == 0 || row.bits > 64) return false;
    // Machine types hold whole elements (C64: two F32), so their sizes must divide the bits.
    const std::uint32_t machine_bits[] = {8, 8, 16, 16, 32, 32, 64, 64, 32, 64};
    const auto storage = static_cast<std::size_t>(row.storage);
    if (storage < std::size(machine_bits) && row.bits % machine_bits[storage] != 0) return false;
    for (int j = 0; j < i; ++j) {
      if (kDtypes[static_cast<std::size_t>(j)].name == row.name) return false;
    }
  }
  return true;
}
static_assert(table_is_consistent(), "kDtypes: a name is empty or repeated, or a size does not fit its storage");
static_assert(dtype_unit(Dtype::F4).bytes == 1 && dtype_unit(Dtype::F4).elements == 2);
static_assert(dtype_unit(Dtype::F6_E2M3).bytes == 3 && dtype_unit(Dtype::F6_E2M3).elements == 4);

}  // namespace

std::optional<Dtype> parse_dtype(std::string_view name) {
  for (std::size_t i = 0; i < kDtypes.size(); ++i) {
    if (kDtypes[i].name == name) return static_cast<Dtype>(i);
  }
  return std::nullopt;
}

}  // namespace safetensors
