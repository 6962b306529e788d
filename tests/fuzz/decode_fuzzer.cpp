// libFuzzer target: the float32 conversion kernels on arbitrary bytes. Byte 0 picks the
// dtype; the rest, copied into a buffer of exactly its size (so ASan sees any overread),
// is converted element by element. Checked on every element: NaN exactly for the codes the
// format calls NaN, the sign of every other value from the code's sign bit, and for the
// small float kinds, strictly increasing values along increasing positive codes. The data
// scan's counts (fed in two pieces split at a point byte 0 also picks) must equal what the
// converted values say: NaN, +inf, -inf and "some value is not zero".
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "convert/float32_convert.h"
#include "convert/value_scan.h"
#include "format/dtype.h"

namespace {

using safetensors::Dtype;

bool is_nan_code(Dtype d, std::uint32_t c) {
  switch (d) {
    case Dtype::F16: return (c & 0x7C00) == 0x7C00 && (c & 0x3FF) != 0;
    case Dtype::BF16: return (c & 0x7F80) == 0x7F80 && (c & 0x7F) != 0;
    case Dtype::F8_E5M2: return (c & 0x7C) == 0x7C && (c & 0x3) != 0;
    case Dtype::F8_E4M3: return (c & 0x7F) == 0x7F;
    case Dtype::F8_E4M3FNUZ:
    case Dtype::F8_E5M2FNUZ: return c == 0x80;
    case Dtype::F8_E8M0: return c == 0xFF;
    default: return false;
  }
}

int code_bits(Dtype d) {
  if (d == Dtype::F16 || d == Dtype::BF16) return 16;
  return 8;
}

float convert_one(Dtype d, std::uint32_t code) {
  std::uint8_t bytes[2] = {static_cast<std::uint8_t>(code & 0xFF), static_cast<std::uint8_t>(code >> 8)};
  float out = 0;
  if (!safetensors::convert_to_f32(d, bytes, &out, 1)) __builtin_trap();
  return out;
}

// The scanner against the converted values (F64 against its own doubles: float32 rounding
// would turn large finite values into infinities).
void check_scan(Dtype dtype, const std::vector<std::uint8_t>& in, const std::vector<float>& out, std::size_t split) {
  safetensors::ValueScanner scanner(dtype);
  scanner.feed(in.data(), split);
  scanner.feed(in.data() + split, in.size() - split);
  const safetensors::ValueCounts& got = scanner.counts();
  std::uint64_t nan = 0, pos = 0, neg = 0;
  bool nonzero = false;
  auto count = [&](double v) {
    nan += std::isnan(v);
    pos += v == INFINITY;
    neg += v == -INFINITY;
    nonzero |= !(v == 0);
  };
  if (dtype == Dtype::F64) {
    for (std::size_t i = 0; i + 8 <= in.size(); i += 8) {
      double v;
      std::memcpy(&v, in.data() + i, 8);
      count(v);
    }
  } else {
    for (float v : out) count(v);
  }
  if (got.nan != nan || got.pos_inf != pos || got.neg_inf != neg || got.nonzero != nonzero) __builtin_trap();
}

constexpr Dtype kSmallFloats[] = {Dtype::F16,         Dtype::BF16,        Dtype::F8_E5M2, Dtype::F8_E4M3,
                                  Dtype::F8_E4M3FNUZ, Dtype::F8_E5M2FNUZ, Dtype::F8_E8M0};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto dtype = static_cast<Dtype>(data[0] % safetensors::kDtypeCount);
  const std::size_t bits = safetensors::dtype_bits(dtype);
  std::vector<std::uint8_t> in(data + 1, data + size);  // exactly the element bytes
  std::size_t count = in.size() * 8 / bits;
  if (dtype == Dtype::F4) count &= ~std::size_t{1};
  const std::size_t outputs = dtype == Dtype::C64 ? 2 * count : count;
  std::vector<float> out(outputs);
  const bool converted = safetensors::convert_to_f32(dtype, in.data(), out.data(), count);
  if (converted != safetensors::has_f32_form(dtype)) __builtin_trap();
  if (!converted) return 0;
  // The scanner sees only whole elements' bytes, as the data section holds.
  std::vector<std::uint8_t> whole(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(count * bits / 8));
  check_scan(dtype, whole, out, whole.size() * (data[0] / safetensors::kDtypeCount) / 12);

  for (const Dtype small : kSmallFloats) {
    if (small != dtype) continue;
    const int width = code_bits(dtype);
    const std::uint32_t sign_bit = 1u << (width - 1);
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint32_t code = width == 16 ? (in[2 * i] | (in[2 * i + 1] << 8)) : in[i];
      const float v = out[i];
      if (std::isnan(v) != is_nan_code(dtype, code)) __builtin_trap();
      if (std::isnan(v)) continue;
      const bool unsigned_kind = dtype == Dtype::F8_E8M0;
      if (!unsigned_kind && std::signbit(v) != ((code & sign_bit) != 0)) __builtin_trap();
      // Along positive codes, values strictly increase (the format's ordering property).
      const std::uint32_t magnitude = unsigned_kind ? code : code & (sign_bit - 1);
      if (magnitude > 0 && (unsigned_kind || (code & sign_bit) == 0)) {
        const float below = convert_one(dtype, code - 1);
        if (!(below < v)) __builtin_trap();
      }
    }
  }
  return 0;
}
