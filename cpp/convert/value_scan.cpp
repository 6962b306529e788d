// Scan kernels, one per ScanClass. IEEE kinds test their bits directly in loops the compiler
// vectorises (with -msimd128: 16-20 GB/s for F16/BF16/F32 in V8, 10 GB/s when every value is
// special); one-byte float kinds count bytes and classify the 256 codes with the decoder's own
// scalar conversion, so their specials cannot drift from what getTensor returns.
#include "convert/value_scan.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "convert/float32_convert.h"

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

// Bytes per scanned unit: the IEEE word of the class, else single bytes.
std::size_t unit_bytes(ScanClass c) {
  switch (c) {
    case ScanClass::Half:
    case ScanClass::BFloat: return 2;
    case ScanClass::Single: return 4;
    case ScanClass::Double: return 8;
    default: return 1;
  }
}

}  // namespace

ValueScanner::ValueScanner(Dtype dtype) : dtype_(dtype), class_(dtype_info(dtype).scan), unit_(unit_bytes(class_)) {}

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
      const auto byte = static_cast<std::uint8_t>(code);
      float v = 0;
      convert_to_f32_scalar(dtype_, &byte, &v, 1);
      if (std::isnan(v))
        counts_.nan += histogram_[code];
      else if (std::isinf(v))
        (v > 0 ? counts_.pos_inf : counts_.neg_inf) += histogram_[code];
      counts_.nonzero |= !(v == 0.0f);  // NaN and infinities are not zero either
      histogram_[code] = 0;
    }
    histogram_used_ = false;
  }
}

void ValueScanner::scan_units(const std::uint8_t* data, std::size_t units) {
  if (units == 0) return;
  ValueCounts& c = counts_;
  switch (class_) {
    case ScanClass::Half: return scan_ieee<std::uint16_t, 0x8000, 0x7C00>(data, units, c);
    case ScanClass::BFloat: return scan_ieee<std::uint16_t, 0x8000, 0x7F80>(data, units, c);
    case ScanClass::Single: return scan_ieee<std::uint32_t, 0x80000000u, 0x7F800000u>(data, units, c);
    case ScanClass::Double:
      return scan_ieee<std::uint64_t, 0x8000000000000000ull, 0x7FF0000000000000ull>(data, units, c);
    case ScanClass::ByteCodes:
      for (std::size_t i = 0; i < units; ++i) ++histogram_[data[i]];
      histogram_used_ = true;
      return;
    case ScanClass::SignedNibbles: c.nonzero |= any_bits(data, units, 0x77); return;  // sign bits aside
    case ScanClass::AnyByte: c.nonzero |= any_bits(data, units, 0xFF); return;
  }
}

}  // namespace safetensors
