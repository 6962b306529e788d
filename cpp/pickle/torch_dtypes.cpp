// The torch dtype table (torch_dtypes.h) and its two lookups.
#include "pickle/torch_dtypes.h"

namespace safetensors::pickle {

const std::array<TorchDtypeInfo, kTorchDtypeCount> kTorchDtypes{{
    // torch/storage.py _dtype_to_storage_type_map: the typed storages
    {"float64", "DoubleStorage", 8, Dtype::F64},
    {"float32", "FloatStorage", 4, Dtype::F32},
    {"float16", "HalfStorage", 2, Dtype::F16},
    {"bfloat16", "BFloat16Storage", 2, Dtype::BF16},
    {"int64", "LongStorage", 8, Dtype::I64},
    {"int32", "IntStorage", 4, Dtype::I32},
    {"int16", "ShortStorage", 2, Dtype::I16},
    {"int8", "CharStorage", 1, Dtype::I8},
    {"uint8", "ByteStorage", 1, Dtype::U8},
    {"bool", "BoolStorage", 1, Dtype::BOOL},
    {"complex64", "ComplexFloatStorage", 8, Dtype::C64},
    {"complex128", "ComplexDoubleStorage", 16, std::nullopt},
    {"qint8", "QInt8Storage", 1, std::nullopt},
    {"quint8", "QUInt8Storage", 1, std::nullopt},
    {"qint32", "QInt32Storage", 4, std::nullopt},
    {"quint4x2", "QUInt4x2Storage", 1, std::nullopt},
    {"quint2x4", "QUInt2x4Storage", 1, std::nullopt},
    // torch/storage.py _new_dtypes: saved as UntypedStorage, the dtype given to _rebuild_tensor_v3
    {"float8_e5m2", "", 1, Dtype::F8_E5M2},
    {"float8_e4m3fn", "", 1, Dtype::F8_E4M3},
    {"float8_e5m2fnuz", "", 1, Dtype::F8_E5M2FNUZ},
    {"float8_e4m3fnuz", "", 1, Dtype::F8_E4M3FNUZ},
    {"float8_e8m0fnu", "", 1, Dtype::F8_E8M0},
    {"float4_e2m1fn_x2", "", 1, std::nullopt},
    {"bits8", "", 1, std::nullopt},
    {"bits16", "", 2, std::nullopt},
    {"bits1x8", "", 1, std::nullopt},
    {"bits2x4", "", 1, std::nullopt},
    {"bits4x2", "", 1, std::nullopt},
    {"complex32", "", 4, std::nullopt},
    {"uint16", "", 2, Dtype::U16},
    {"uint32", "", 4, Dtype::U32},
    {"uint64", "", 8, Dtype::U64},
}};

std::optional<TorchDtype> torch_dtype_from_storage(std::string_view storage_class) {
  for (int i = 0; i < kTorchDtypeCount; ++i)
    if (!kTorchDtypes[i].storage.empty() && kTorchDtypes[i].storage == storage_class) return static_cast<TorchDtype>(i);
  return std::nullopt;
}

std::optional<TorchDtype> torch_dtype_from_name(std::string_view name) {
  for (int i = 0; i < kTorchDtypeCount; ++i)
    if (kTorchDtypes[i].name == name) return static_cast<TorchDtype>(i);
  return std::nullopt;
}

}  // namespace safetensors::pickle
