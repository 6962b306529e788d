// Element types of the safetensors format: the one table of what each dtype is.
// Everything else (sizes, how getTensor returns it, how the data scan reads it, and
// the JavaScript side through the wasm's core tables) is read from this table.
// Adding a dtype is one row here plus its conversion and scan kernels.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace safetensors {

/// @brief The dtypes the reference loader accepts, in its declaration order (the
/// reference writer sorts tensors by this order, descending).
enum class Dtype : std::uint8_t {
  BOOL,         ///< 8-bit boolean
  F4,           ///< 4-bit float E2M1, two per byte
  F6_E2M3,      ///< 6-bit float
  F6_E3M2,      ///< 6-bit float
  U8,           ///< unsigned 8-bit integer
  I8,           ///< signed 8-bit integer
  F8_E5M2,      ///< 8-bit float, 5 exponent bits
  F8_E4M3,      ///< 8-bit float, 4 exponent bits, no infinities
  F8_E8M0,      ///< 8-bit power-of-two scale
  F8_E4M3FNUZ,  ///< 8-bit float, single NaN, no negative zero
  F8_E5M2FNUZ,  ///< 8-bit float, single NaN, no negative zero
  I16,          ///< signed 16-bit integer
  U16,          ///< unsigned 16-bit integer
  F16,          ///< IEEE half precision
  BF16,         ///< bfloat16
  I32,          ///< signed 32-bit integer
  U32,          ///< unsigned 32-bit integer
  F32,          ///< IEEE single precision
  C64,          ///< complex of two F32
  F64,          ///< IEEE double precision
  I64,          ///< signed 64-bit integer
  U64,          ///< unsigned 64-bit integer
};

/// @brief How the file stores one element, as far as a reader can use the bytes as they are.
/// The first ten: the bytes are little-endian elements of that machine type (C64: pairs of
/// F32, real then imaginary), so getTensor's default result is that type's typed array.
enum class Storage : std::uint8_t {
  U8,           ///< uint8
  I8,           ///< int8
  U16,          ///< uint16
  I16,          ///< int16
  U32,          ///< uint32
  I32,          ///< int32
  U64,          ///< uint64
  I64,          ///< int64
  F32,          ///< IEEE binary32
  F64,          ///< IEEE binary64
  NarrowFloat,  ///< a float format no machine has: values come from the conversion kernels
  Bool,         ///< one byte per value; any non-zero byte is true
  Packed,       ///< sub-byte values whose packing writers do not agree on: kept as bytes
};

/// @brief How the data scan reads a dtype's values (value_scan.cpp has one kernel per class).
enum class ScanClass : std::uint8_t {
  Half,           ///< IEEE binary16 bits: NaN and infinities by bit tests
  BFloat,         ///< bfloat16 bits
  Single,         ///< IEEE binary32 bits (C64: each component)
  Double,         ///< IEEE binary64 bits
  ByteCodes,      ///< one byte per value: its 256 codes classified with the exact conversion
  SignedNibbles,  ///< 4-bit values with a sign bit: only "all zero", ignoring signs
  AnyByte,        ///< integers, BOOL and packed kinds: only "all zero" (some byte is not 0)
};

/// @brief Everything the rest of the project knows about one dtype.
struct DtypeInfo {
  std::string_view name;  ///< the exact, case-sensitive name used in headers
  std::uint8_t bits;      ///< size of one element in bits (the reference's bitsize())
  Storage storage;        ///< how the bytes can be read
  ScanClass scan;         ///< how the data scan counts its values
};

/// @brief Number of dtypes.
inline constexpr int kDtypeCount = 22;

/// @brief The table, indexed by Dtype. Bits are the reference's (docs/reference-rules.md).
// One row per dtype, in columns.
// clang-format off
inline constexpr std::array<DtypeInfo, kDtypeCount> kDtypes{{
    // name          bits  storage               scan
    {"BOOL",          8,  Storage::Bool,        ScanClass::AnyByte},
    {"F4",            4,  Storage::NarrowFloat, ScanClass::SignedNibbles},
    {"F6_E2M3",       6,  Storage::Packed,      ScanClass::AnyByte},
    {"F6_E3M2",       6,  Storage::Packed,      ScanClass::AnyByte},
    {"U8",            8,  Storage::U8,          ScanClass::AnyByte},
    {"I8",            8,  Storage::I8,          ScanClass::AnyByte},
    {"F8_E5M2",       8,  Storage::NarrowFloat, ScanClass::ByteCodes},
    {"F8_E4M3",       8,  Storage::NarrowFloat, ScanClass::ByteCodes},
    {"F8_E8M0",       8,  Storage::NarrowFloat, ScanClass::ByteCodes},
    {"F8_E4M3FNUZ",   8,  Storage::NarrowFloat, ScanClass::ByteCodes},
    {"F8_E5M2FNUZ",   8,  Storage::NarrowFloat, ScanClass::ByteCodes},
    {"I16",          16,  Storage::I16,         ScanClass::AnyByte},
    {"U16",          16,  Storage::U16,         ScanClass::AnyByte},
    {"F16",          16,  Storage::NarrowFloat, ScanClass::Half},
    {"BF16",         16,  Storage::NarrowFloat, ScanClass::BFloat},
    {"I32",          32,  Storage::I32,         ScanClass::AnyByte},
    {"U32",          32,  Storage::U32,         ScanClass::AnyByte},
    {"F32",          32,  Storage::F32,         ScanClass::Single},
    {"C64",          64,  Storage::F32,         ScanClass::Single},
    {"F64",          64,  Storage::F64,         ScanClass::Double},
    {"I64",          64,  Storage::I64,         ScanClass::AnyByte},
    {"U64",          64,  Storage::U64,         ScanClass::AnyByte},
}};
// clang-format on

/// @brief The row of `d`.
constexpr const DtypeInfo& dtype_info(Dtype d) { return kDtypes[static_cast<std::size_t>(d)]; }

/// @brief The exact, case-sensitive name used in headers.
constexpr std::string_view dtype_name(Dtype d) { return dtype_info(d).name; }

/// @brief Size of one element in bits (4 for F4, 6 for F6 kinds).
constexpr std::uint32_t dtype_bits(Dtype d) { return dtype_info(d).bits; }

/// @brief Bytes of one element, or 0 for sub-byte kinds (which have no alignment of their own).
constexpr std::uint32_t dtype_element_bytes(Dtype d) { return dtype_bits(d) % 8 == 0 ? dtype_bits(d) / 8 : 0; }

/// @brief The smallest whole number of bytes holding whole elements, and how many: (2, 1) for
/// F16, (1, 2) for F4, (3, 4) for the F6 kinds. Streams are cut into such units.
struct DtypeUnit {
  std::uint32_t bytes;     ///< bytes per unit
  std::uint32_t elements;  ///< elements per unit
};
constexpr DtypeUnit dtype_unit(Dtype d) {
  std::uint32_t bytes = 1;
  while (bytes * 8 % dtype_bits(d) != 0) ++bytes;
  return {bytes, bytes * 8 / dtype_bits(d)};
}

/// @brief True when the dtype has a float32 form: every dtype whose bytes are not kept packed.
constexpr bool has_f32_form(Dtype d) { return dtype_info(d).storage != Storage::Packed; }

/// @brief Parses a header dtype name; nullopt for anything the reference rejects.
std::optional<Dtype> parse_dtype(std::string_view name);

}  // namespace safetensors
