// A file cut short (a broken download or copy): the messages give the bytes the file has and the
// bytes its header needs, and say what that means.
#include <gtest/gtest.h>

#include "file_builder.h"
#include "findings/message_text.h"

namespace safetensors::testing {
namespace {

// Part of an issue's wording: both byte counts, and what it means.
TEST(CutShort, DataShorterThanTheOffsetsNeedGivesBothCounts) {
  const std::string header = "{\"w\":{\"dtype\":\"F32\",\"shape\":[250],\"data_offsets\":[0,1000]}}";
  const std::string file = make_file(header, 1000).substr(0, 8 + header.size() + 400);
  const Report r = analyze(file);
  EXPECT_EQ(r.error, ReferenceError::MetadataIncompleteBuffer);
  EXPECT_EQ(r.error_message, "the file has " + count_bytes(file.size()) + ", the header needs " +
                                 group_digits(8 + header.size() + 1000) +
                                 ": the download looks cut short (600 bytes missing at the end); download or copy "
                                 "it again");
  for (const Finding& f : r.findings) EXPECT_NE(f.code, FindingCode::NotSafetensors);  // cut short, not foreign
}

TEST(CutShort, AHeaderCutShortGivesBothCounts) {
  const std::string header = "{\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}";
  const std::string file = make_file(header, 4).substr(0, 30);
  const Report r = analyze(file);
  EXPECT_EQ(r.error, ReferenceError::InvalidHeaderLength);
  EXPECT_EQ(r.error_message, "the file has 30 bytes, the header needs " + std::to_string(8 + header.size()) +
                                 ": the download looks cut short; download or copy it again");
  // Where nothing after the prefix looks like a header, the message says it may be another format.
  const std::string odd = length_prefix(1000) + "xyz";
  EXPECT_EQ(analyze(odd).error_message,
            "the file has 11 bytes, the header needs 1,008 (a header length read from its first 8 bytes): the "
            "download looks cut short, or this is not a safetensors file");
}

}  // namespace
}  // namespace safetensors::testing
