// Scalar conversion kernels, one per dtype, and the dispatch to the SIMD ones.
#include "convert/float32_convert.h"

#include <cstring>

#include "convert/minifloat.h"

#if defined(__wasm_simd128__)
#include "convert/float32_convert_simd.h"
#endif

namespace safetensors {
namespace {

template <typename T>
T load(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);  // little-endian file, little-endian wasm and x86
  return v;
}

template <MiniFloatFormat F>
void minifloat8(const std::uint8_t* in, float* out, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) out[i] = f32_from_bits(minifloat_to_f32_bits<F>(in[i]));
}

void f16(const std::uint8_t* in, float* out, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    out[i] = f32_from_bits(minifloat_to_f32_bits<kF16>(load<std::uint16_t>(in + 2 * i)));
  }
}

void bf16(const std::uint8_t* in, float* out, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    out[i] = f32_from_bits(static_cast<std::uint32_t>(load<std::uint16_t>(in + 2 * i)) << 16);
  }
}

void e8m0(const std::uint8_t* in, float* out, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) out[i] = f32_from_bits(e8m0_to_f32_bits(in[i]));
}

void f4(const std::uint8_t* in, float* out, std::size_t count) {
  for (std::size_t i = 0; i < count / 2; ++i) {
    out[2 * i] = f32_from_bits(minifloat_to_f32_bits<kF4E2M1>(in[i] & 0x0Fu));
    out[2 * i + 1] = f32_from_bits(minifloat_to_f32_bits<kF4E2M1>(in[i] >> 4));
  }
}

// Integers and F64 round to nearest, ties to even (the IEEE default, as in Math.fround).
template <typename T>
void cast(const std::uint8_t* in, float* out, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<float>(load<T>(in + sizeof(T) * i));
}

}  // namespace

bool convert_to_f32_scalar(Dtype dtype, const std::uint8_t* in, float* out, std::size_t count) {
  // Nothing to do, and memcpy must not see the null pointers of empty buffers (found by fuzzing).
  if (count == 0) return has_f32_form(dtype);
  switch (dtype) {
    case Dtype::F16: f16(in, out, count); return true;
    case Dtype::BF16: bf16(in, out, count); return true;
    case Dtype::F8_E5M2: minifloat8<kF8E5M2>(in, out, count); return true;
    case Dtype::F8_E4M3: minifloat8<kF8E4M3>(in, out, count); return true;
    case Dtype::F8_E4M3FNUZ: minifloat8<kF8E4M3Fnuz>(in, out, count); return true;
    case Dtype::F8_E5M2FNUZ: minifloat8<kF8E5M2Fnuz>(in, out, count); return true;
    case Dtype::F8_E8M0: e8m0(in, out, count); return true;
    case Dtype::F4: f4(in, out, count); return true;
    case Dtype::F32: std::memcpy(out, in, count * 4); return true;
    case Dtype::C64: std::memcpy(out, in, count * 8); return true;
    case Dtype::F64: cast<double>(in, out, count); return true;
    case Dtype::BOOL:
      for (std::size_t i = 0; i < count; ++i) out[i] = in[i] != 0 ? 1.0f : 0.0f;
      return true;
    case Dtype::U8: cast<std::uint8_t>(in, out, count); return true;
    case Dtype::I8: cast<std::int8_t>(in, out, count); return true;
    case Dtype::U16: cast<std::uint16_t>(in, out, count); return true;
    case Dtype::I16: cast<std::int16_t>(in, out, count); return true;
    case Dtype::U32: cast<std::uint32_t>(in, out, count); return true;
    case Dtype::I32: cast<std::int32_t>(in, out, count); return true;
    case Dtype::U64: cast<std::uint64_t>(in, out, count); return true;
    case Dtype::I64: cast<std::int64_t>(in, out, count); return true;
    case Dtype::F6_E2M3:
    case Dtype::F6_E3M2: return false;
  }
  return false;
}

bool convert_to_f32(Dtype dtype, const std::uint8_t* in, float* out, std::size_t count) {
  if (count == 0) return has_f32_form(dtype);
#if defined(__wasm_simd128__)
  const std::size_t done = simd::convert_to_f32_prefix(dtype, in, out, count);
  const std::size_t in_bytes = done * dtype_bits(dtype) / 8;
  return convert_to_f32_scalar(dtype, in + in_bytes, out + done, count - done);
#else
  return convert_to_f32_scalar(dtype, in, out, count);
#endif
}

void normalize_bool(const std::uint8_t* in, std::uint8_t* out, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) out[i] = in[i] != 0 ? 1 : 0;
}

bool simd_kernels_compiled() {
#if defined(__wasm_simd128__)
  return true;
#else
  return false;
#endif
}

}  // namespace safetensors
