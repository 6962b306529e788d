// Steps 1-4: length prefix, limits and UTF-8 (docs/reference-rules.md).
#include <gtest/gtest.h>

#include "file_builder.h"
#include "format/header_prefix.h"

namespace safetensors::testing {
namespace {

using E = ReferenceError;

TEST(LengthPrefix, EmptyFileIsHeaderTooSmall) { EXPECT_EQ(verdict(""), E::HeaderTooSmall); }

TEST(LengthPrefix, SevenBytesIsHeaderTooSmall) { EXPECT_EQ(verdict(std::string(7, '\0')), E::HeaderTooSmall); }

TEST(LengthPrefix, AboveOneHundredMillionIsHeaderTooLarge) {
  EXPECT_EQ(verdict(length_prefix(100'000'001)), E::HeaderTooLarge);
  EXPECT_EQ(verdict(length_prefix(UINT64_MAX)), E::HeaderTooLarge);
  // The reference's example: 3c 00 00 00 00 ff ff ff.
  EXPECT_EQ(verdict(std::string("\x3c\0\0\0\0\xff\xff\xff", 8)), E::HeaderTooLarge);
}

TEST(LengthPrefix, ExactlyOneHundredMillionPassesTheLimit) {
  // Passes step 2, then fails step 3 because the file is only 8 bytes.
  EXPECT_EQ(verdict(length_prefix(100'000'000)), E::InvalidHeaderLength);
  const HeaderExtent e =
      read_header_extent({reinterpret_cast<const std::uint8_t*>(length_prefix(100'000'000).data()), 8}, 100'000'008);
  EXPECT_EQ(e.error, E::None);
  EXPECT_EQ(e.header_length, 100'000'000u);
}

TEST(LengthPrefix, HeaderPastEndOfFileIsInvalidHeaderLength) {
  EXPECT_EQ(verdict(length_prefix(60)), E::InvalidHeaderLength);
  EXPECT_EQ(verdict(length_prefix(3) + "{}"), E::InvalidHeaderLength);
}

TEST(LengthPrefix, ZeroLengthPassesAndFailsAsJson) {
  EXPECT_EQ(verdict(length_prefix(0)), E::InvalidHeaderDeserialization);
}

TEST(LengthPrefix, ErrorMessagesGiveTheNumbers) {
  const Report r = analyze(length_prefix(1000) + std::string(80, ' '));
  ASSERT_EQ(r.error, E::InvalidHeaderLength);
  EXPECT_NE(r.error_message.find("the file has 88 bytes, the header needs 1,008"), std::string::npos)
      << r.error_message;
}

TEST(Utf8, InvalidByteIsInvalidHeader) {
  EXPECT_EQ(verdict(make_file("\xff")), E::InvalidHeader);
  const Report r = analyze(make_file("{\"a\xff\":1}"));
  ASSERT_EQ(r.error, E::InvalidHeader);
  EXPECT_NE(r.error_message.find("offset 3"), std::string::npos) << r.error_message;
}

TEST(Utf8, OverlongSurrogateAndTruncatedSequencesAreRejected) {
  EXPECT_EQ(header_verdict("{\"\xc0\xaf\":1}"), E::InvalidHeader);          // overlong '/'
  EXPECT_EQ(header_verdict("{\"\xe0\x80\xaf\":1}"), E::InvalidHeader);      // overlong, 3 bytes
  EXPECT_EQ(header_verdict("{\"\xed\xa0\x80\":1}"), E::InvalidHeader);      // encoded U+D800
  EXPECT_EQ(header_verdict("{\"\xf4\x90\x80\x80\":1}"), E::InvalidHeader);  // above U+10FFFF
  EXPECT_EQ(header_verdict("{}  \xe2\x82"), E::InvalidHeader);              // cut at the end
}

TEST(Utf8, PaddingBytesAreCheckedToo) { EXPECT_EQ(header_verdict("{}    \x80"), E::InvalidHeader); }

TEST(Utf8, ValidMultibyteNamesPass) {
  const std::string header = "{" + entry("h\xc3\xa9llo-\xe2\x82\xac-\xf0\x9f\x98\x80", "U8", "[1]", 0, 1) + "}";
  EXPECT_EQ(header_verdict(header, 1), E::None);
}

TEST(Utf8, ByteOrderMarkPassesUtf8ButFailsAsJson) {
  EXPECT_EQ(header_verdict("\xef\xbb\xbf{}"), E::InvalidHeaderDeserialization);
}

}  // namespace
}  // namespace safetensors::testing
