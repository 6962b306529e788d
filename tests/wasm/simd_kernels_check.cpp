// Built for wasm with -msimd128 and run under Node by `make test`: every SIMD kernel
// against the scalar reference, bit for bit, over every code of its format, at every
// input misalignment and for every tail length. Exit status 0 means all matched.
#include <cstdio>
#include <cstring>
#include <vector>

#include "float32_convert.h"

namespace {

using safetensors::Dtype;

struct Kind {
  Dtype dtype;
  int bytes;  // per element
};

constexpr Kind kKinds[] = {
    {Dtype::F16, 2},         {Dtype::BF16, 2},        {Dtype::F8_E5M2, 1}, {Dtype::F8_E4M3, 1},
    {Dtype::F8_E4M3FNUZ, 1}, {Dtype::F8_E5M2FNUZ, 1}, {Dtype::F8_E8M0, 1},
};

// Compares both paths on `count` elements starting at byte `misalign` of a copy of `codes`.
int compare(Kind kind, const std::vector<std::uint8_t>& codes, std::size_t count, std::size_t misalign) {
  std::vector<std::uint8_t> in(codes.size() + 16);
  std::memcpy(in.data() + misalign, codes.data(), count * kind.bytes);
  std::vector<float> simd(count + 1, 0.0f), scalar(count + 1, 0.0f);
  const std::uint8_t* src = in.data() + misalign;
  if (!safetensors::convert_to_f32(kind.dtype, src, simd.data(), count) ||
      !safetensors::convert_to_f32_scalar(kind.dtype, src, scalar.data(), count)) {
    std::printf("%s: conversion refused\n", safetensors::dtype_name(kind.dtype).data());
    return 1;
  }
  int mismatches = 0;
  for (std::size_t i = 0; i <= count; ++i) {
    std::uint32_t a, b;
    std::memcpy(&a, &simd[i], 4);
    std::memcpy(&b, &scalar[i], 4);
    if (a != b && mismatches++ < 5) {
      std::printf("%s element %zu (misalign %zu, count %zu): simd %08x scalar %08x\n",
                  safetensors::dtype_name(kind.dtype).data(), i, misalign, count, a, b);
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
  for (const Kind& kind : kKinds) {
    const std::size_t code_count = kind.bytes == 2 ? 65536 : 256;
    std::vector<std::uint8_t> codes(code_count * kind.bytes);
    for (std::size_t c = 0; c < code_count; ++c) {
      codes[c * kind.bytes] = static_cast<std::uint8_t>(c & 0xFF);
      if (kind.bytes == 2) codes[c * kind.bytes + 1] = static_cast<std::uint8_t>(c >> 8);
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
