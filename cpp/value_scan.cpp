// Scan kernels. IEEE kinds test their bits directly in loops the compiler vectorises
// (with -msimd128: 16-20 GB/s for F16/BF16/F32 in V8, 10 GB/s when every value is special);
// one-byte float kinds count bytes and classify the 256 codes with the exact
// conversions of minifloat.h, so their specials cannot drift from the decoder's.
#include "value_scan.h"

#include <cmath>
#include <algorithm>
#include <cstring>

#include "minifloat.h"

namespace safetensors {
namespace {

template <typename U>
U load(const std::uint8_t* p) {
  U v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// IEEE layout with `exp_mask` the all-ones exponent: counts specials and non-zeros.
template <typename U, U kSign, U kExpMask>
void scan_ieee(const std::uint8_t* data, std::size_t count, ValueCounts& c) {
  // Counters as wide as the elements, over blocks short enough not to overflow them,
  // keep the loop in one lane width, where it vectorises (u64 counters on u16 data: 9x slower).
  constexpr std::size_t kBlock = std::min<std::uint64_t>(U(~U{0}), std::uint64_t{1} << 30);
  for (std::size_t start = 0; start < count; start += kBlock) {
    const std::size_t end = std::min(count, start + kBlock);
    U nan = 0, pos = 0, neg = 0;
    U any = 0;
    for (std::size_t i = start; i < end; ++i) {
      const U x = load<U>(data + i * sizeof(U));
      const U mag = x & static_cast<U>(~kSign);
      any |= mag;
      nan += mag > kExpMask;
      pos += x == kExpMask;
      neg += x == static_cast<U>(kSign | kExpMask);
    }
    c.nan += nan;
    c.pos_inf += pos;
    c.neg_inf += neg;
    c.nonzero |= any != 0;
  }
}

// Any byte with a bit of `mask` set.
bool any_bits(const std::uint8_t* data, std::size_t size, std::uint8_t mask) {
  std::uint64_t wide = 0;
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) wide |= load<std::uint64_t>(data + i);
  std::uint8_t rest = 0;
  for (; i < size; ++i) rest |= data[i];
  for (int shift = 0; shift < 64; shift += 8) rest |= static_cast<std::uint8_t>(wide >> shift);
  return (rest & mask) != 0;
}

std::uint32_t one_byte_to_f32_bits(Dtype dtype, std::uint32_t code) {
  switch (dtype) {
    case Dtype::F8_E5M2: return minifloat_to_f32_bits<kF8E5M2>(code);
    case Dtype::F8_E4M3: return minifloat_to_f32_bits<kF8E4M3>(code);
    case Dtype::F8_E4M3FNUZ: return minifloat_to_f32_bits<kF8E4M3Fnuz>(code);
    case Dtype::F8_E5M2FNUZ: return minifloat_to_f32_bits<kF8E5M2Fnuz>(code);
    default: return e8m0_to_f32_bits(code);
  }
}

bool is_one_byte_float(Dtype d) {
  return d == Dtype::F8_E5M2 || d == Dtype::F8_E4M3 || d == Dtype::F8_E4M3FNUZ || d == Dtype::F8_E5M2FNUZ ||
         d == Dtype::F8_E8M0;
}

}  // namespace

ValueScanner::ValueScanner(Dtype dtype) : dtype_(dtype) {
  const std::uint32_t bits = dtype_bits(dtype);
  unit_ = bits % 8 == 0 ? bits / 8 : 1;
  if (dtype == Dtype::C64) unit_ = 4;  // scanned as its two F32 components
}

void ValueScanner::feed(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  if (carried_ != 0) {
    const std::size_t take = std::min(unit_ - carried_, size);
    std::memcpy(carry_.data() + carried_, data, take);
    carried_ += take;
    data += take;
    size -= take;
    if (carried_ < unit_) return;
    scan_units(carry_.data(), 1);
    carried_ = 0;
  }
  const std::size_t units = size / unit_;
  scan_units(data, units);
  carried_ = size - units * unit_;
  if (carried_ != 0) std::memcpy(carry_.data(), data + units * unit_, carried_);
  if (histogram_used_) {
    // Fold the byte counts into counts_ so that counts() is always current.
    for (std::uint32_t code = 0; code < 256; ++code) {
      if (histogram_[code] == 0) continue;
      const std::uint32_t f = one_byte_to_f32_bits(dtype_, code);
      const float v = f32_from_bits(f);
      if (std::isnan(v)) counts_.nan += histogram_[code];
      else if (std::isinf(v)) (v > 0 ? counts_.pos_inf : counts_.neg_inf) += histogram_[code];
      counts_.nonzero |= !(v == 0.0f);  // NaN and infinities are not zero either
      histogram_[code] = 0;
    }
    histogram_used_ = false;
  }
}

void ValueScanner::scan_units(const std::uint8_t* data, std::size_t units) {
  if (units == 0) return;
  ValueCounts& c = counts_;
  switch (dtype_) {
    case Dtype::F16: return scan_ieee<std::uint16_t, 0x8000, 0x7C00>(data, units, c);
    case Dtype::BF16: return scan_ieee<std::uint16_t, 0x8000, 0x7F80>(data, units, c);
    case Dtype::F32:
    case Dtype::C64: return scan_ieee<std::uint32_t, 0x80000000u, 0x7F800000u>(data, units, c);
    case Dtype::F64:
      return scan_ieee<std::uint64_t, 0x8000000000000000ull, 0x7FF0000000000000ull>(data, units, c);
    case Dtype::F4: c.nonzero |= any_bits(data, units, 0x77); return;  // sign bits aside
    default: break;
  }
  if (is_one_byte_float(dtype_)) {
    for (std::size_t i = 0; i < units; ++i) ++histogram_[data[i]];
    histogram_used_ = true;
    return;
  }
  c.nonzero |= any_bits(data, units * unit_, 0xFF);
}

}  // namespace safetensors
