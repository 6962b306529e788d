// The data scan's counts on hand-built bytes, fed whole and in awkward pieces.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "convert/value_scan.h"

namespace safetensors::testing {
namespace {

template <typename T>
std::vector<std::uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<std::uint8_t> out(values.size() * sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

ValueCounts scan(Dtype d, const std::vector<std::uint8_t>& bytes, std::size_t piece = 0) {
  ValueScanner s(d);
  if (piece == 0) piece = bytes.size() + 1;
  for (std::size_t at = 0; at < bytes.size(); at += piece)
    s.feed(bytes.data() + at, std::min(piece, bytes.size() - at));
  return s.counts();
}

void expect_counts(const ValueCounts& c, std::uint64_t nan, std::uint64_t pos, std::uint64_t neg, bool nonzero) {
  EXPECT_EQ(c.nan, nan);
  EXPECT_EQ(c.pos_inf, pos);
  EXPECT_EQ(c.neg_inf, neg);
  EXPECT_EQ(c.nonzero, nonzero);
}

constexpr float kInf = std::numeric_limits<float>::infinity();

TEST(ValueScan, F32SpecialsAndSignedZero) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto bytes = bytes_of<float>({1.5f, nan, -nan, kInf, -kInf, -kInf, -0.0f, 0.0f});
  for (std::size_t piece : {0, 1, 3, 5}) expect_counts(scan(Dtype::F32, bytes, piece), 2, 1, 2, true);
  expect_counts(scan(Dtype::F32, bytes_of<float>({0.0f, -0.0f, 0.0f})), 0, 0, 0, false);
  expect_counts(scan(Dtype::F32, bytes_of<float>({0.0f, nan})), 1, 0, 0, true);  // NaN is not zero
  expect_counts(scan(Dtype::F32, bytes_of<float>({std::numeric_limits<float>::denorm_min()})), 0, 0, 0, true);
  // Signalling NaN with a payload (0x7F800001) is NaN, not infinity.
  expect_counts(scan(Dtype::F32, bytes_of<std::uint32_t>({0x7F800001u, 0xFF800001u})), 2, 0, 0, true);
}

TEST(ValueScan, F64AndC64) {
  const double inf = std::numeric_limits<double>::infinity();
  const auto f64 = bytes_of<double>({-0.0, inf, std::nan(""), 0.0, -inf});
  for (std::size_t piece : {0, 1, 7, 9}) expect_counts(scan(Dtype::F64, f64, piece), 1, 1, 1, true);
  // C64 counts per component: (NaN, 0), (+inf, -inf).
  const auto c64 = bytes_of<float>({std::nanf(""), 0.0f, kInf, -kInf});
  expect_counts(scan(Dtype::C64, c64, 3), 1, 1, 1, true);
}

TEST(ValueScan, HalfKinds) {
  // F16: 0x7C00 +inf, 0xFC00 -inf, 0x7E00 NaN, 0x7C01 NaN, 0x8000 -0.
  expect_counts(scan(Dtype::F16, bytes_of<std::uint16_t>({0x7C00, 0xFC00, 0x7E00, 0xFC01, 0x8000}), 3), 2, 1, 1, true);
  expect_counts(scan(Dtype::F16, bytes_of<std::uint16_t>({0x8000, 0x0001})), 0, 0, 0, true);
  // BF16: 0x7F80 +inf, 0xFF80 -inf, 0x7FC0 NaN; 0x7C00 is a finite number here.
  expect_counts(scan(Dtype::BF16, bytes_of<std::uint16_t>({0x7F80, 0xFF80, 0x7FC0, 0x7C00})), 1, 1, 1, true);
}

// Every one-byte code once: counts follow each format's definition (OCP FP8, FNUZ, MX E8M0).
TEST(ValueScan, EveryCodeOfTheOneByteFloats) {
  std::vector<std::uint8_t> all(256);
  for (int i = 0; i < 256; ++i) all[i] = static_cast<std::uint8_t>(i);
  expect_counts(scan(Dtype::F8_E5M2, all, 7), 6, 1, 1, true);   // exp 31: 0x7C/0xFC inf, 3 NaN per sign
  expect_counts(scan(Dtype::F8_E4M3, all, 7), 2, 0, 0, true);   // 0x7F, 0xFF
  expect_counts(scan(Dtype::F8_E4M3FNUZ, all), 1, 0, 0, true);  // 0x80 only
  expect_counts(scan(Dtype::F8_E5M2FNUZ, all), 1, 0, 0, true);
  expect_counts(scan(Dtype::F8_E8M0, all), 1, 0, 0, true);                  // 0xFF
  expect_counts(scan(Dtype::F8_E4M3, {0x00, 0x80, 0x00}), 0, 0, 0, false);  // +0 and -0
  expect_counts(scan(Dtype::F8_E4M3FNUZ, {0x00, 0x00}), 0, 0, 0, false);
  expect_counts(scan(Dtype::F8_E4M3FNUZ, {0x00, 0x80}), 1, 0, 0, true);  // 0x80 is NaN, not -0
  expect_counts(scan(Dtype::F8_E8M0, {0x00}), 0, 0, 0, true);            // 2^-127: E8M0 has no zero
}

TEST(ValueScan, PackedAndIntegerKindsOnlyTestForZero) {
  expect_counts(scan(Dtype::F4, {0x88, 0x08, 0x80}), 0, 0, 0, false);  // nibbles of -0
  expect_counts(scan(Dtype::F4, {0x00, 0x10}), 0, 0, 0, true);
  std::vector<std::uint8_t> zeros(1000, 0);
  for (Dtype d : {Dtype::BOOL, Dtype::U8, Dtype::I8, Dtype::I16, Dtype::U32, Dtype::I64, Dtype::U64, Dtype::F6_E2M3}) {
    expect_counts(scan(d, zeros, 13), 0, 0, 0, false);
    auto one = zeros;
    one[997] = 0x80;
    expect_counts(scan(d, one, 13), 0, 0, 0, true);
  }
}

TEST(ValueScan, NothingFedIsAllZeroWithNoSpecials) { expect_counts(ValueScanner(Dtype::F32).counts(), 0, 0, 0, false); }

}  // namespace
}  // namespace safetensors::testing
