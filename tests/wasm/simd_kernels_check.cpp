// Built for wasm with -msimd128 and run under Node by `make test`: every SIMD kernel
// against the scalar reference, bit for bit, over every code of its format, at every
// input misalignment and for every tail length. Exit status 0 means all matched.
#include <cstdio>
#include <cstring>
#include <vector>

#include "convert/float32_convert.h"

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
  std::printf("%s: %zu elements compared, %d mismatches\n", failures ? "FAIL" : "ok", checked, failures);
  return failures == 0 ? 0 : 1;
}
