// Steps 6-7: offsets, overflow, sizes and the total file size (docs/reference-rules.md).
#include <gtest/gtest.h>

#include "file_builder.h"

namespace safetensors::testing {
namespace {

using E = ReferenceError;

TEST(Offsets, JsonOrderDoesNotMatterTensorsAreSortedByOffsets) {
  const std::string header = "{" + entry("b", "U8", "[2]", 2, 4) + "," + entry("a", "U8", "[2]", 0, 2) + "}";
  const Report r = analyze(make_file(header, 4));
  ASSERT_EQ(r.error, E::None);
  EXPECT_EQ(r.tensors[0].name, "a");
  EXPECT_EQ(r.tensors[1].name, "b");
}

TEST(Offsets, FirstTensorMustStartAtZero) {
  const Report r = analyze(make_file("{" + entry("a", "U8", "[2]", 1, 3) + "}", 3));
  EXPECT_EQ(r.error, E::InvalidOffset);
  EXPECT_EQ(r.error_tensor, "a");
}

TEST(Offsets, HolesAndOverlapsAreInvalidOffset) {
  EXPECT_EQ(verdict(make_file("{" + entry("a", "U8", "[2]", 0, 2) + "," + entry("b", "U8", "[2]", 3, 5) + "}", 5)),
            E::InvalidOffset);
  EXPECT_EQ(verdict(make_file("{" + entry("a", "U8", "[2]", 0, 2) + "," + entry("b", "U8", "[2]", 1, 3) + "}", 3)),
            E::InvalidOffset);
}

TEST(Offsets, EndBeforeBeginIsInvalidOffset) {
  EXPECT_EQ(verdict(make_file("{" + entry("a", "U8", "[0]", 0, 0) + "," + entry("b", "U8", "[0]", 0, 0) + "," +
                                  entry("c", "U8", "[2]", 2, 0) + "}",
                              2)),
            E::InvalidOffset);
}

TEST(Offsets, TenTensorsAtTheSameRangeAreInvalidOffset) {
  std::string header = "{";
  for (int i = 0; i < 10; ++i) header += (i ? "," : "") + entry("t" + std::to_string(i), "F32", "[2,2]", 0, 16);
  EXPECT_EQ(verdict(make_file(header + "}", 16)), E::InvalidOffset);
}

TEST(Offsets, OffsetErrorBeatsALaterTensorsSizeError) {
  // Sorted: a [0,4] is wrong in size (TensorInvalidInfo) and comes first; b has a hole.
  const std::string header = "{" + entry("a", "U8", "[2]", 0, 4) + "," + entry("b", "U8", "[2]", 5, 7) + "}";
  EXPECT_EQ(verdict(make_file(header, 7)), E::TensorInvalidInfo);
  // Per tensor, the offset check comes before the size checks.
  EXPECT_EQ(verdict(make_file("{" + entry("a", "U8", "[18446744073709551615,2]", 1, 4) + "}", 4)), E::InvalidOffset);
}

TEST(Overflow, ShapeProductIsCheckedLeftToRight) {
  EXPECT_EQ(verdict(make_file("{" + entry("a", "U8", "[4294967296,4294967296,0]", 0, 0) + "}")), E::ValidationOverflow);
  EXPECT_EQ(verdict(make_file("{" + entry("a", "U8", "[0,4294967296,4294967296]", 0, 0) + "}")), E::None);
  EXPECT_EQ(verdict(make_file("{" + entry("a", "I32", "[2,18446744073709551614]", 0, 0) + "}")), E::ValidationOverflow);
  EXPECT_EQ(verdict(make_file("{" + entry("a", "I32", "[2,9223372036854775807]", 0, 0) + "}")), E::ValidationOverflow);
}

TEST(Overflow, BitCountOverflowIsValidationOverflow) {
  // 2^61 elements fit; x 8 bits = 2^64 does not.
  const Report r = analyze(make_file("{" + entry("a", "U8", "[2305843009213693952]", 0, 0) + "}"));
  EXPECT_EQ(r.error, E::ValidationOverflow);
  EXPECT_NE(r.error_message.find("size in bits"), std::string::npos);
}

TEST(Misaligned, F4NeedsAnEvenCountF6AMultipleOfFour) {
  EXPECT_EQ(verdict(make_file("{" + entry("a", "F4", "[3]", 0, 1) + "}", 1)), E::MisalignedSlice);
  EXPECT_EQ(verdict(make_file("{" + entry("a", "F4", "[4]", 0, 2) + "}", 2)), E::None);
  EXPECT_EQ(verdict(make_file("{" + entry("a", "F6_E2M3", "[2]", 0, 1) + "}", 1)), E::MisalignedSlice);
  EXPECT_EQ(verdict(make_file("{" + entry("a", "F6_E3M2", "[4]", 0, 3) + "}", 3)), E::None);
}

TEST(Size, OffsetsMustSpanExactlyTheTensorsBytes) {
  EXPECT_EQ(verdict(make_file("{" + entry("a", "I32", "[2,2]", 0, 4) + "}", 4)), E::TensorInvalidInfo);
  EXPECT_EQ(verdict(make_file("{" + entry("a", "I32", "[2,2]", 0, 17) + "}", 17)), E::TensorInvalidInfo);
  const Report r = analyze(make_file("{" + entry("a", "I32", "[2,2]", 0, 4) + "}", 4));
  EXPECT_NE(r.error_message.find("needs 16 bytes"), std::string::npos) << r.error_message;
}

TEST(Size, ZeroSizeTensorsAnywhereTheyFit) {
  const std::string header = "{" + entry("a", "U8", "[0]", 0, 0) + "," + entry("b", "F32", "[1]", 0, 4) + "," +
                             entry("c", "I32", "[2,0]", 4, 4) + "," + entry("d", "U8", "[0,5]", 4, 4) + "}";
  EXPECT_EQ(verdict(make_file(header, 4)), E::None);
}

TEST(FileSize, TrailingBytesAreMetadataIncompleteBuffer) {
  const Report r = analyze(make_file("{" + entry("a", "U8", "[2]", 0, 2) + "}", 14));
  EXPECT_EQ(r.error, E::MetadataIncompleteBuffer);
  EXPECT_NE(r.error_message.find("12 extra bytes after the last tensor"), std::string::npos) << r.error_message;
}

TEST(FileSize, MissingBytesAreMetadataIncompleteBuffer) {
  const Report r = analyze(make_file("{" + entry("a", "U8", "[16]", 0, 16) + "}", 14));
  EXPECT_EQ(r.error, E::MetadataIncompleteBuffer);
  EXPECT_NE(r.error_message.find("2 bytes missing"), std::string::npos) << r.error_message;
}

TEST(FileSize, NoTensorsAndNoDataIsValid) {
  EXPECT_EQ(verdict(make_file("{}")), E::None);
  EXPECT_EQ(verdict(make_file("{}", 1)), E::MetadataIncompleteBuffer);
}

TEST(FileSize, OffsetsNearU64MaxDoNotWrap) {
  // Eight U8 tensors of 2^61-1 bytes end at 2^64-8, so 8 + N + end overflows
  // (the reference's own addition is unchecked; ours must not wrap).
  constexpr std::uint64_t kChunk = (std::uint64_t{1} << 61) - 1;
  std::string header = "{";
  for (std::uint64_t k = 0; k < 8; ++k) {
    header += (k ? "," : "") +
              entry("t" + std::to_string(k), "U8", "[" + std::to_string(kChunk) + "]", k * kChunk, (k + 1) * kChunk);
  }
  const Report r = analyze(make_file(header + "}"));
  EXPECT_EQ(r.error, E::MetadataIncompleteBuffer);
  EXPECT_NE(r.error_message.find("2^64"), std::string::npos) << r.error_message;
}

}  // namespace
}  // namespace safetensors::testing
