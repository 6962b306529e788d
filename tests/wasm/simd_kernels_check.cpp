// Built for wasm with -msimd128 and run under Node by `make test`: every SIMD kernel
// against the scalar reference, bit for bit, over every code of its format (for the
// float32-to-F16/BF16 kernels, a million patterns around every rounding boundary), at every
// input misalignment and for every tail length. Exit status 0 means all matched.
#include <cstdio>
#include <cstring>
#include <vector>

#include "convert/float32_convert.h"
#include "convert/narrow_float.h"

namespace {

using safetensors::Dtype;

// The dtypes with SIMD kernels (float32_convert_simd.cpp).
constexpr Dtype kKinds[] = {Dtype::F16,         Dtype::BF16,        Dtype::F8_E5M2, Dtype::F8_E4M3,
                            Dtype::F8_E4M3FNUZ, Dtype::F8_E5M2FNUZ, Dtype::F8_E8M0};

// Compares both paths on `count` elements starting at byte `misalign` of a copy of `codes`.
int compare(Dtype dtype, const std::vector<std::uint8_t>& codes, std::size_t count, std::size_t misalign) {
  const std::size_t bytes = safetensors::dtype_element_bytes(dtype);
  std::vector<std::uint8_t> in(codes.size() + 16);
  std::memcpy(in.data() + misalign, codes.data(), count * bytes);
  std::vector<float> simd(count + 1, 0.0f), scalar(count + 1, 0.0f);
  const std::uint8_t* src = in.data() + misalign;
  if (!safetensors::convert_to_f32(dtype, src, simd.data(), count) ||
      !safetensors::convert_to_f32_scalar(dtype, src, scalar.data(), count)) {
    std::printf("%s: conversion refused\n", safetensors::dtype_name(dtype).data());
    return 1;
  }
  int mismatches = 0;
  for (std::size_t i = 0; i <= count; ++i) {
    std::uint32_t a, b;
    std::memcpy(&a, &simd[i], 4);
    std::memcpy(&b, &scalar[i], 4);
    if (a != b && mismatches++ < 5) {
      std::printf("%s element %zu (misalign %zu, count %zu): simd %08x scalar %08x\n",
                  safetensors::dtype_name(dtype).data(), i, misalign, count, a, b);
    }
  }
  return mismatches;
}

// Float32 to F16 or BF16 on write: both paths on `count` floats from byte `misalign`.
int compare_narrow(Dtype to, const std::vector<std::uint32_t>& floats, std::size_t count, std::size_t misalign) {
  std::vector<std::uint8_t> in(floats.size() * 4 + 16);
  std::memcpy(in.data() + misalign, floats.data(), count * 4);
  std::vector<std::uint16_t> simd(count + 1, 0xABCD), scalar(count + 1, 0xABCD);
  const std::uint8_t* src = in.data() + misalign;
  if (!safetensors::convert_floats(Dtype::F32, to, src, reinterpret_cast<std::uint8_t*>(simd.data()), count) ||
      !safetensors::convert_floats_scalar(Dtype::F32, to, src, reinterpret_cast<std::uint8_t*>(scalar.data()), count)) {
    std::printf("F32 to %s: conversion refused\n", safetensors::dtype_name(to).data());
    return 1;
  }
  int mismatches = 0;
  for (std::size_t i = 0; i <= count; ++i) {
    if (simd[i] != scalar[i] && mismatches++ < 5) {
      std::printf("F32 %08x to %s (misalign %zu): simd %04x scalar %04x\n", i < count ? floats[i] : 0u,
                  safetensors::dtype_name(to).data(), misalign, simd[i], scalar[i]);
    }
  }
  return mismatches;
}

// Every top half of a float32 (sign, exponent, 7 mantissa bits) with low halves at and around
// both formats' halfway points: 65,536 x 16 patterns.
std::vector<std::uint32_t> narrow_patterns() {
  const std::uint32_t lows[] = {0,      1,      0x0FFF, 0x1000, 0x1001, 0x1FFF, 0x2000, 0x2FFF,
                                0x3000, 0x3001, 0x7FFF, 0x8000, 0x8001, 0xBFFF, 0xF000, 0xFFFF};
  std::vector<std::uint32_t> out;
  for (std::uint32_t high = 0; high < 65536; ++high)
    for (std::uint32_t low : lows) out.push_back(high << 16 | low);
  return out;
}

}  // namespace

int main() {
  if (!safetensors::simd_kernels_compiled()) {
    std::puts("FAIL: built without -msimd128, so there is nothing to compare");
    return 1;
  }
  int failures = 0;
  std::size_t checked = 0;
  for (const Dtype kind : kKinds) {
    const std::size_t bytes = safetensors::dtype_element_bytes(kind);
    const std::size_t code_count = bytes == 2 ? 65536 : 256;
    std::vector<std::uint8_t> codes(code_count * bytes);
    for (std::size_t c = 0; c < code_count; ++c) {
      codes[c * bytes] = static_cast<std::uint8_t>(c & 0xFF);
      if (bytes == 2) codes[c * bytes + 1] = static_cast<std::uint8_t>(c >> 8);
    }
    for (std::size_t misalign = 0; misalign < 4; ++misalign) {
      failures += compare(kind, codes, code_count, misalign);
      checked += code_count;
    }
    for (std::size_t tail = 0; tail <= 33; ++tail) {
      failures += compare(kind, codes, tail, tail % 3);
      checked += tail;
    }
  }
  const std::vector<std::uint32_t> floats = narrow_patterns();
  for (const Dtype to : {Dtype::F16, Dtype::BF16}) {
    for (std::size_t misalign = 0; misalign < 4; ++misalign) {
      failures += compare_narrow(to, floats, floats.size(), misalign);
      checked += floats.size();
    }
    for (std::size_t tail = 0; tail <= 33; ++tail) {
      failures += compare_narrow(to, floats, tail, tail % 3);
      checked += tail;
    }
  }
  std::printf("%s: %zu elements compared, %d mismatches\n", failures ? "FAIL" : "ok", checked, failures);
  return failures == 0 ? 0 : 1;
}
