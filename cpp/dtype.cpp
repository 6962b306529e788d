// Dtype names and sizes, as in the reference's Dtype enum and bitsize().
#include "dtype.h"

#include <array>

namespace safetensors {
namespace {

struct DtypeInfo {
  std::string_view name;
  std::uint32_t bits;
};

constexpr std::array<DtypeInfo, kDtypeCount> kDtypes{{
    {"BOOL", 8},    {"F4", 4},           {"F6_E2M3", 6},      {"F6_E3M2", 6}, {"U8", 8},
    {"I8", 8},      {"F8_E5M2", 8},      {"F8_E4M3", 8},      {"F8_E8M0", 8}, {"F8_E4M3FNUZ", 8},
    {"F8_E5M2FNUZ", 8}, {"I16", 16},     {"U16", 16},         {"F16", 16},    {"BF16", 16},
    {"I32", 32},    {"U32", 32},         {"F32", 32},         {"C64", 64},    {"F64", 64},
    {"I64", 64},    {"U64", 64},
}};

}  // namespace

std::string_view dtype_name(Dtype d) { return kDtypes[static_cast<std::size_t>(d)].name; }

std::uint32_t dtype_bits(Dtype d) { return kDtypes[static_cast<std::size_t>(d)].bits; }

std::optional<Dtype> parse_dtype(std::string_view name) {
  for (std::size_t i = 0; i < kDtypes.size(); ++i) {
    if (kDtypes[i].name == name) return static_cast<Dtype>(i);
  }
  return std::nullopt;
}

}  // namespace safetensors
