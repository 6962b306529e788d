// Step 5: the header JSON, decided as serde_json decides it (docs/reference-rules.md).
#include <gtest/gtest.h>

#include "file_builder.h"

namespace safetensors::testing {
namespace {

using E = ReferenceError;
constexpr E kBadJson = E::InvalidHeaderDeserialization;

constexpr const char* kGoodEntry = R"({"dtype":"U8","shape":[1],"data_offsets":[0,1]})";

TEST(JsonWhitespace, LeadingAndTrailingJsonWhitespaceIsAccepted) {
  EXPECT_EQ(header_verdict("{}\r \t\n"), E::None);
  EXPECT_EQ(header_verdict("\t\n{}\r "), E::None);
  EXPECT_EQ(header_verdict(" \n { } \n "), E::None);
}

TEST(JsonWhitespace, OtherTrailingBytesAreRejected) {
  EXPECT_EQ(header_verdict(std::string("{}\0", 3)), kBadJson);
  EXPECT_EQ(header_verdict("{}\f"), kBadJson);
  EXPECT_EQ(header_verdict("{}\xc2\xa0"), kBadJson);  // NBSP
  EXPECT_EQ(header_verdict("{}x"), kBadJson);
  EXPECT_EQ(header_verdict("{}{}"), kBadJson);
  EXPECT_EQ(header_verdict("\f{}"), kBadJson);
}

TEST(JsonSyntax, CommentsAndTrailingCommasAreRejected) {
  EXPECT_EQ(header_verdict("{/*c*/}"), kBadJson);
  EXPECT_EQ(header_verdict("{\"t\":" + std::string(kGoodEntry) + ",}", 1), kBadJson);
  EXPECT_EQ(one_entry_verdict(R"({"dtype":"U8","shape":[1,],"data_offsets":[0,1]})"), kBadJson);
  EXPECT_EQ(header_verdict("{"), kBadJson);
}

TEST(JsonSyntax, TopLevelMustBeAnObject) {
  EXPECT_EQ(header_verdict("[]"), kBadJson);
  EXPECT_EQ(header_verdict("null"), kBadJson);
  EXPECT_EQ(header_verdict("\"x\""), kBadJson);
  EXPECT_EQ(header_verdict("1"), kBadJson);
}

// `depth` nested containers counting the outer object, reached through an unknown field.
std::string nested_unknown_field(int depth) {
  std::string value;
  for (int i = 0; i < depth - 2; ++i) value += "[";
  for (int i = 0; i < depth - 2; ++i) value += "]";
  return R"({"dtype":"U8","shape":[1],"data_offsets":[0,1],"x":)" + value + "}";
}

TEST(JsonNesting, At127LevelsAcceptedAt128Rejected) {
  EXPECT_EQ(one_entry_verdict(nested_unknown_field(127)), E::None);
  EXPECT_EQ(one_entry_verdict(nested_unknown_field(128)), kBadJson);
  EXPECT_EQ(one_entry_verdict(nested_unknown_field(10'000)), kBadJson);
}

// `containers` nested arrays and objects (the outer object and the entry count) ending in `leaf`.
std::string nested_with_leaf(int containers, std::string_view leaf) {
  std::string open, close;
  for (int i = 0; i < containers - 2; ++i) {
    open += (i % 2 == 0) ? "[" : R"({"k":)";
    close.insert(0, (i % 2 == 0) ? "]" : "}");
  }
  return R"({"dtype":"U8","shape":[1],"data_offsets":[0,1],"x":)" + open + std::string(leaf) + close + "}";
}

// serde_json counts every `[` and `{`, empty or not; simdjson's own limit skips empty
// containers, so a scalar at the bottom of 127 levels was once refused here.
TEST(JsonNesting, EveryLeafKindCountsAsSerdeCountsIt) {
  for (std::string_view leaf : {"1", "-0", "\"s\"", "null", "true", "1e5"}) {
    EXPECT_EQ(one_entry_verdict(nested_with_leaf(127, leaf)), E::None) << leaf;
    EXPECT_EQ(one_entry_verdict(nested_with_leaf(128, leaf)), kBadJson) << leaf;
  }
  // An empty container at the bottom is itself a level.
  for (std::string_view leaf : {"[]", "{}"}) {
    EXPECT_EQ(one_entry_verdict(nested_with_leaf(126, leaf)), E::None) << leaf;
    EXPECT_EQ(one_entry_verdict(nested_with_leaf(127, leaf)), kBadJson) << leaf;
  }
  EXPECT_EQ(one_entry_verdict(nested_with_leaf(126, "[1,[]]")), kBadJson);
  EXPECT_EQ(one_entry_verdict(nested_with_leaf(125, "[1,[]]")), E::None);
}

TEST(Metadata, OptionalNullOrEmptyAndAnywhere) {
  EXPECT_EQ(header_verdict(R"({"__metadata__":null})"), E::None);
  EXPECT_EQ(header_verdict(R"({"__metadata__":{}})"), E::None);
  const Report r = analyze(make_file("{\"t\":" + std::string(kGoodEntry) + R"(,"__metadata__":{"a":"b"}})", 1));
  EXPECT_EQ(r.error, E::None);
  ASSERT_EQ(r.metadata.size(), 1u);
  EXPECT_EQ(r.metadata[0].second, "b");
  EXPECT_FALSE(analyze(make_file(R"({"__metadata__":null})")).has_metadata);
}

TEST(Metadata, ValuesMustBeStrings) {
  EXPECT_EQ(header_verdict(R"({"__metadata__":{"a":1}})"), kBadJson);
  EXPECT_EQ(header_verdict(R"({"__metadata__":{"a":null}})"), kBadJson);
  EXPECT_EQ(header_verdict(R"({"__metadata__":{"a":{}}})"), kBadJson);
  EXPECT_EQ(header_verdict(R"({"__metadata__":{"a":["b"]}})"), kBadJson);
  EXPECT_EQ(header_verdict(R"({"__metadata__":{"a":true}})"), kBadJson);
  EXPECT_EQ(header_verdict(R"({"__metadata__":"x"})"), kBadJson);
  EXPECT_EQ(header_verdict(R"({"__metadata__":[]})"), kBadJson);
  EXPECT_EQ(header_verdict(R"({"__metadata__":{"a":-0}})"), kBadJson);
  EXPECT_EQ(header_verdict(R"({"__metadata__":{"a":123456789012345678901234567890}})"), kBadJson);
}

TEST(Metadata, KeyMatchedAfterUnescaping) {
  const Report r = analyze(make_file(R"({"__metadata\u005f_":{"k":"v"}})"));
  EXPECT_EQ(r.error, E::None);
  EXPECT_TRUE(r.has_metadata);
  // Being the metadata key, it cannot also be a tensor: a string value here is rejected.
  EXPECT_EQ(header_verdict(R"({"__metadata\u005f_":{"k":1}})"), kBadJson);
}

TEST(Metadata, SecondMetadataKeyIsRejected) {
  EXPECT_EQ(header_verdict(R"({"__metadata__":{},"__metadata__":{}})"), kBadJson);
  EXPECT_EQ(header_verdict(R"({"__metadata__":null,"__metadata__":null})"), kBadJson);
}

TEST(Metadata, DuplicateKeysInsideAreAcceptedLastWins) {
  const Report r = analyze(make_file(R"({"__metadata__":{"a":"1","b":"2","a":"3"}})"));
  ASSERT_EQ(r.error, E::None);
  ASSERT_EQ(r.metadata.size(), 2u);
  EXPECT_EQ(r.metadata[0].first, "a");
  EXPECT_EQ(r.metadata[0].second, "3");
}

TEST(TensorNames, DuplicatesAreAcceptedLastWins) {
  const std::string header = "{" + entry("a", "U8", "[4]", 0, 4) + "," + entry("a", "U8", "[2]", 0, 2) + "}";
  const Report r = analyze(make_file(header, 2));
  EXPECT_EQ(r.error, E::None);
  ASSERT_EQ(r.tensors.size(), 1u);
  EXPECT_EQ(r.tensors[0].end, 2u);
  // With the first entry's 4 bytes, the kept entry leaves 2 trailing bytes.
  EXPECT_EQ(verdict(make_file(header, 4)), E::MetadataIncompleteBuffer);
}

TEST(TensorNames, EmptyAndNulNamesAreValid) {
  const Report r =
      analyze(make_file("{" + entry("", "U8", "[1]", 0, 1) + "," + entry("\\u0000", "U8", "[1]", 1, 2) + "}", 2));
  ASSERT_EQ(r.error, E::None);
  ASSERT_EQ(r.tensors.size(), 2u);
  EXPECT_EQ(r.tensors[0].name, "");
  EXPECT_EQ(r.tensors[1].name, std::string("\0", 1));
}

TEST(Strings, RawControlCharactersAreRejected) {
  EXPECT_EQ(header_verdict("{\"__metadata__\":{\"a\":\"x\ty\"}}"), kBadJson);
  EXPECT_EQ(header_verdict(std::string("{\"__metadata__\":{\"a\":\"\0\"}}", 26)), kBadJson);
  EXPECT_EQ(header_verdict("{\"__metadata__\":{\"a\":\"\x1f\"}}"), kBadJson);
}

TEST(Strings, LoneSurrogatesRejectedPairsAccepted) {
  EXPECT_EQ(header_verdict(R"({"__metadata__":{"a":"\ud800"}})"), kBadJson);
  EXPECT_EQ(header_verdict(R"({"__metadata__":{"a":"\udc00"}})"), kBadJson);
  EXPECT_EQ(header_verdict(R"({"__metadata__":{"a":"\ud800x"}})"), kBadJson);
  const Report r = analyze(make_file(R"({"__metadata__":{"a":"\ud83d\ude00"}})"));
  ASSERT_EQ(r.error, E::None);
  EXPECT_EQ(r.metadata[0].second, "\xf0\x9f\x98\x80");
}

TEST(Strings, InvalidEscapesAreRejected) {
  EXPECT_EQ(header_verdict(R"({"__metadata__":{"a":"\x"}})"), kBadJson);
  EXPECT_EQ(header_verdict(R"({"__metadata__":{"a":"\u12"}})"), kBadJson);
}

TEST(JsonErrors, MessageSaysWhatIsWrong) {
  const Report r = analyze(make_file("{" + entry("w", "F33", "[1]", 0, 1) + "}", 1));
  ASSERT_EQ(r.error, kBadJson);
  EXPECT_NE(r.error_message.find("'F33'"), std::string::npos) << r.error_message;
  EXPECT_NE(r.error_message.find("'w'"), std::string::npos) << r.error_message;
}

}  // namespace
}  // namespace safetensors::testing
