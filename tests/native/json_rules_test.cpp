// Step 5: the header JSON, decided as serde_json decides it (docs/reference-rules.md).
#include <gtest/gtest.h>

#include "file_builder.h"

namespace safetensors::testing {
namespace {

using E = ReferenceError;
constexpr E kBadJson = E::InvalidHeaderDeserialization;

// One U8 tensor "t" of shape [1] with one data byte, written with `entry_json` as its value.
ReferenceError one_entry(std::string_view entry_json) {
  return header_verdict("{\"t\":" + std::string(entry_json) + "}", 1);
}

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
  EXPECT_EQ(one_entry(R"({"dtype":"U8","shape":[1,],"data_offsets":[0,1]})"), kBadJson);
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
  EXPECT_EQ(one_entry(nested_unknown_field(127)), E::None);
  EXPECT_EQ(one_entry(nested_unknown_field(128)), kBadJson);
  EXPECT_EQ(one_entry(nested_unknown_field(10'000)), kBadJson);
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
    EXPECT_EQ(one_entry(nested_with_leaf(127, leaf)), E::None) << leaf;
    EXPECT_EQ(one_entry(nested_with_leaf(128, leaf)), kBadJson) << leaf;
  }
  // An empty container at the bottom is itself a level.
  for (std::string_view leaf : {"[]", "{}"}) {
    EXPECT_EQ(one_entry(nested_with_leaf(126, leaf)), E::None) << leaf;
    EXPECT_EQ(one_entry(nested_with_leaf(127, leaf)), kBadJson) << leaf;
  }
  EXPECT_EQ(one_entry(nested_with_leaf(126, "[1,[]]")), kBadJson);
  EXPECT_EQ(one_entry(nested_with_leaf(125, "[1,[]]")), E::None);
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

TEST(TensorEntry, MissingOrRepeatedFieldsAreRejected) {
  EXPECT_EQ(one_entry(R"({"shape":[1],"data_offsets":[0,1]})"), kBadJson);
  EXPECT_EQ(one_entry(R"({"dtype":"U8","data_offsets":[0,1]})"), kBadJson);
  EXPECT_EQ(one_entry(R"({"dtype":"U8","shape":[1]})"), kBadJson);
  EXPECT_EQ(one_entry(R"({"dtype":"U8","dtype":"U8","shape":[1],"data_offsets":[0,1]})"), kBadJson);
  EXPECT_EQ(one_entry(R"({"dtype":"U8","shape":[1],"shape":[1],"data_offsets":[0,1]})"), kBadJson);
  EXPECT_EQ(one_entry(R"({"dtype":"U8","shape":[1],"data_offsets":[0,1],"data_offsets":[0,1]})"), kBadJson);
}

TEST(TensorEntry, UnknownFieldsAreIgnored) {
  EXPECT_EQ(one_entry(R"({"x":{"deep":[1,2.5,"s",null,true]},"dtype":"U8","shape":[1],"data_offsets":[0,1],"y":-3})"),
            E::None);
}

TEST(TensorEntry, FieldNamesMatchAfterUnescaping) {
  EXPECT_EQ(one_entry(R"({"dtyp\u0065":"U8","shape":[1],"data_offsets":[0,1]})"), E::None);
}

TEST(TensorEntry, ThreeElementArrayFormIsAccepted) {
  const Report r = analyze(make_file(R"({"t":["U8",[1],[0,1]]})", 1));
  ASSERT_EQ(r.error, E::None);
  EXPECT_EQ(r.tensors[0].end, 1u);
  EXPECT_EQ(one_entry(R"(["U8",[1]])"), kBadJson);
  EXPECT_EQ(one_entry(R"(["U8",[1],[0,1],0])"), kBadJson);
  EXPECT_EQ(one_entry(R"([[1],"U8",[0,1]])"), kBadJson);
}

TEST(TensorEntry, OtherValueKindsAreRejected) {
  EXPECT_EQ(one_entry("null"), kBadJson);
  EXPECT_EQ(one_entry("\"U8\""), kBadJson);
  EXPECT_EQ(one_entry("1"), kBadJson);
  EXPECT_EQ(one_entry("{}"), kBadJson);
}

TEST(Dtype, EveryReferenceNameIsAccepted) {
  for (int i = 0; i < kDtypeCount; ++i) {
    const auto d = static_cast<Dtype>(i);
    const std::string name(dtype_name(d));
    // 8 elements: a whole number of bytes for every bit width (4, 6, 8, ... 64).
    const std::uint64_t bytes = 8 * dtype_bits(d) / 8;
    EXPECT_EQ(header_verdict("{" + entry("t", name, "[8]", 0, bytes) + "}", bytes), E::None) << name;
  }
}

TEST(Dtype, OtherNamesAreRejected) {
  for (const char* name : {"C128", "U4", "I4", "F8_E4M3FN", "f32", "F32 ", "", "FLOAT"}) {
    EXPECT_EQ(header_verdict("{" + entry("t", name, "[1]", 0, 1) + "}", 1), kBadJson) << name;
  }
  EXPECT_EQ(one_entry(R"({"dtype":8,"shape":[1],"data_offsets":[0,1]})"), kBadJson);
  EXPECT_EQ(one_entry(R"({"dtype":null,"shape":[1],"data_offsets":[0,1]})"), kBadJson);
}

TEST(Dtype, MapFormWithNullIsAccepted) {
  EXPECT_EQ(one_entry(R"({"dtype":{"U8":null},"shape":[1],"data_offsets":[0,1]})"), E::None);
  EXPECT_EQ(one_entry(R"({"dtype":{"U8":1},"shape":[1],"data_offsets":[0,1]})"), kBadJson);
  EXPECT_EQ(one_entry(R"({"dtype":{"U8":[]},"shape":[1],"data_offsets":[0,1]})"), kBadJson);
  EXPECT_EQ(one_entry(R"({"dtype":{},"shape":[1],"data_offsets":[0,1]})"), kBadJson);
  EXPECT_EQ(one_entry(R"({"dtype":{"U8":null,"I8":null},"shape":[1],"data_offsets":[0,1]})"), kBadJson);
  EXPECT_EQ(one_entry(R"({"dtype":{"X8":null},"shape":[1],"data_offsets":[0,1]})"), kBadJson);
}

TEST(Shape, ArrayOfUnsignedIntegersScalarAllowed) {
  EXPECT_EQ(header_verdict("{" + entry("t", "U8", "[]", 0, 1) + "}", 1), E::None);
  EXPECT_EQ(one_entry(R"({"dtype":"U8","shape":1,"data_offsets":[0,1]})"), kBadJson);
  EXPECT_EQ(one_entry(R"({"dtype":"U8","shape":null,"data_offsets":[0,1]})"), kBadJson);
  EXPECT_EQ(one_entry(R"({"dtype":"U8","shape":{},"data_offsets":[0,1]})"), kBadJson);
}

TEST(DataOffsets, ExactlyTwoUnsignedIntegers) {
  EXPECT_EQ(one_entry(R"({"dtype":"U8","shape":[1],"data_offsets":[0]})"), kBadJson);
  EXPECT_EQ(one_entry(R"({"dtype":"U8","shape":[1],"data_offsets":[0,1,1]})"), kBadJson);
  EXPECT_EQ(one_entry(R"({"dtype":"U8","shape":[1],"data_offsets":{"0":1}})"), kBadJson);
}

// Integer rules, tried in a shape and in data_offsets.
TEST(Integers, OnlyPlainNonNegativeIntegersUpToU64Max) {
  for (const char* bad : {"-1", "1.0", "1e0", "1E0", "-0", "01", "+1", "\"1\"", "18446744073709551616",
                          "99999999999999999999999", "-9223372036854775809", "true", "null", "0x1"}) {
    EXPECT_EQ(one_entry(std::string(R"({"dtype":"U8","shape":[)") + bad + R"(],"data_offsets":[0,1]})"), kBadJson)
        << bad;
    EXPECT_EQ(one_entry(std::string(R"({"dtype":"U8","shape":[1],"data_offsets":[0,)") + bad + "]}"), kBadJson) << bad;
  }
}

TEST(Integers, ValuesAbove2To53AreExact) {
  // A zero-element tensor may have any other dimension, up to u64 max.
  const Report r = analyze(make_file("{" + entry("t", "U8", "[0,18446744073709551615,9007199254740993]", 0, 0) + "}"));
  ASSERT_EQ(r.error, E::None);
  EXPECT_EQ(r.tensors[0].shape[1], UINT64_MAX);
  EXPECT_EQ(r.tensors[0].shape[2], 9007199254740993u);
}

TEST(Integers, IgnoredFieldsAcceptWhatSerdeReadsAsFloats) {
  for (const char* ok : {"-0", "123456789012345678901234567890", "-123456789012345678901234567890",
                         "18446744073709551616", "1e-400", "-0.0", "1.5e308"}) {
    EXPECT_EQ(one_entry(std::string(R"({"dtype":"U8","shape":[1],"data_offsets":[0,1],"x":[)") + ok + "]}"), E::None)
        << ok;
  }
  const std::vector<std::string> rejected = {"1e400", "-1e400",  std::string(400, '9'), "01", "1.", ".5", "-", "1e",
                                             "NaN",   "Infinity"};
  for (const std::string& bad : rejected) {
    EXPECT_EQ(one_entry(std::string(R"({"dtype":"U8","shape":[1],"data_offsets":[0,1],"x":)") + bad + "}"), kBadJson)
        << bad;
  }
}

TEST(Integers, NegativeZeroInsideStringsIsUntouched) {
  const Report r = analyze(make_file("{" + entry("layer-0", "U8", "[1]", 0, 1) + R"(,"__metadata__":{"v":"-0"}})", 1));
  ASSERT_EQ(r.error, E::None);
  EXPECT_EQ(r.tensors[0].name, "layer-0");
  EXPECT_EQ(r.metadata[0].second, "-0");
}

TEST(JsonErrors, MessageSaysWhatIsWrong) {
  const Report r = analyze(make_file("{" + entry("w", "F33", "[1]", 0, 1) + "}", 1));
  ASSERT_EQ(r.error, kBadJson);
  EXPECT_NE(r.error_message.find("'F33'"), std::string::npos) << r.error_message;
  EXPECT_NE(r.error_message.find("'w'"), std::string::npos) << r.error_message;
}

}  // namespace
}  // namespace safetensors::testing
