// Step 5, one tensor's entry: its fields, dtype, shape and data_offsets, and the integers in
// them, decided as serde_json decides them (docs/reference-rules.md).
#include <gtest/gtest.h>

#include "file_builder.h"

namespace safetensors::testing {
namespace {

using E = ReferenceError;
constexpr E kBadEntry = E::InvalidHeaderDeserialization;

TEST(TensorEntry, MissingOrRepeatedFieldsAreRejected) {
  EXPECT_EQ(one_entry_verdict(R"({"shape":[1],"data_offsets":[0,1]})"), kBadEntry);
  EXPECT_EQ(one_entry_verdict(R"({"dtype":"U8","data_offsets":[0,1]})"), kBadEntry);
  EXPECT_EQ(one_entry_verdict(R"({"dtype":"U8","shape":[1]})"), kBadEntry);
  EXPECT_EQ(one_entry_verdict(R"({"dtype":"U8","dtype":"U8","shape":[1],"data_offsets":[0,1]})"), kBadEntry);
  EXPECT_EQ(one_entry_verdict(R"({"dtype":"U8","shape":[1],"shape":[1],"data_offsets":[0,1]})"), kBadEntry);
  EXPECT_EQ(one_entry_verdict(R"({"dtype":"U8","shape":[1],"data_offsets":[0,1],"data_offsets":[0,1]})"), kBadEntry);
}

TEST(TensorEntry, UnknownFieldsAreIgnored) {
  EXPECT_EQ(
      one_entry_verdict(R"({"x":{"deep":[1,2.5,"s",null,true]},"dtype":"U8","shape":[1],"data_offsets":[0,1],"y":-3})"),
      E::None);
}

TEST(TensorEntry, FieldNamesMatchAfterUnescaping) {
  EXPECT_EQ(one_entry_verdict(R"({"dtyp\u0065":"U8","shape":[1],"data_offsets":[0,1]})"), E::None);
}

TEST(TensorEntry, ThreeElementArrayFormIsAccepted) {
  const Report r = analyze(make_file(R"({"t":["U8",[1],[0,1]]})", 1));
  ASSERT_EQ(r.error, E::None);
  EXPECT_EQ(r.tensors[0].end, 1u);
  EXPECT_EQ(one_entry_verdict(R"(["U8",[1]])"), kBadEntry);
  EXPECT_EQ(one_entry_verdict(R"(["U8",[1],[0,1],0])"), kBadEntry);
  EXPECT_EQ(one_entry_verdict(R"([[1],"U8",[0,1]])"), kBadEntry);
}

TEST(TensorEntry, OtherValueKindsAreRejected) {
  EXPECT_EQ(one_entry_verdict("null"), kBadEntry);
  EXPECT_EQ(one_entry_verdict("\"U8\""), kBadEntry);
  EXPECT_EQ(one_entry_verdict("1"), kBadEntry);
  EXPECT_EQ(one_entry_verdict("{}"), kBadEntry);
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
    EXPECT_EQ(header_verdict("{" + entry("t", name, "[1]", 0, 1) + "}", 1), kBadEntry) << name;
  }
  EXPECT_EQ(one_entry_verdict(R"({"dtype":8,"shape":[1],"data_offsets":[0,1]})"), kBadEntry);
  EXPECT_EQ(one_entry_verdict(R"({"dtype":null,"shape":[1],"data_offsets":[0,1]})"), kBadEntry);
}

TEST(Dtype, MapFormWithNullIsAccepted) {
  EXPECT_EQ(one_entry_verdict(R"({"dtype":{"U8":null},"shape":[1],"data_offsets":[0,1]})"), E::None);
  EXPECT_EQ(one_entry_verdict(R"({"dtype":{"U8":1},"shape":[1],"data_offsets":[0,1]})"), kBadEntry);
  EXPECT_EQ(one_entry_verdict(R"({"dtype":{"U8":[]},"shape":[1],"data_offsets":[0,1]})"), kBadEntry);
  EXPECT_EQ(one_entry_verdict(R"({"dtype":{},"shape":[1],"data_offsets":[0,1]})"), kBadEntry);
  EXPECT_EQ(one_entry_verdict(R"({"dtype":{"U8":null,"I8":null},"shape":[1],"data_offsets":[0,1]})"), kBadEntry);
  EXPECT_EQ(one_entry_verdict(R"({"dtype":{"X8":null},"shape":[1],"data_offsets":[0,1]})"), kBadEntry);
}

TEST(Shape, ArrayOfUnsignedIntegersScalarAllowed) {
  EXPECT_EQ(header_verdict("{" + entry("t", "U8", "[]", 0, 1) + "}", 1), E::None);
  EXPECT_EQ(one_entry_verdict(R"({"dtype":"U8","shape":1,"data_offsets":[0,1]})"), kBadEntry);
  EXPECT_EQ(one_entry_verdict(R"({"dtype":"U8","shape":null,"data_offsets":[0,1]})"), kBadEntry);
  EXPECT_EQ(one_entry_verdict(R"({"dtype":"U8","shape":{},"data_offsets":[0,1]})"), kBadEntry);
}

TEST(DataOffsets, ExactlyTwoUnsignedIntegers) {
  EXPECT_EQ(one_entry_verdict(R"({"dtype":"U8","shape":[1],"data_offsets":[0]})"), kBadEntry);
  EXPECT_EQ(one_entry_verdict(R"({"dtype":"U8","shape":[1],"data_offsets":[0,1,1]})"), kBadEntry);
  EXPECT_EQ(one_entry_verdict(R"({"dtype":"U8","shape":[1],"data_offsets":{"0":1}})"), kBadEntry);
}

// Integer rules, tried in a shape and in data_offsets.
TEST(Integers, OnlyPlainNonNegativeIntegersUpToU64Max) {
  for (const char* bad : {"-1", "1.0", "1e0", "1E0", "-0", "01", "+1", "\"1\"", "18446744073709551616",
                          "99999999999999999999999", "-9223372036854775809", "true", "null", "0x1"}) {
    EXPECT_EQ(one_entry_verdict(std::string(R"({"dtype":"U8","shape":[)") + bad + R"(],"data_offsets":[0,1]})"),
              kBadEntry)
        << bad;
    EXPECT_EQ(one_entry_verdict(std::string(R"({"dtype":"U8","shape":[1],"data_offsets":[0,)") + bad + "]}"), kBadEntry)
        << bad;
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
    EXPECT_EQ(one_entry_verdict(std::string(R"({"dtype":"U8","shape":[1],"data_offsets":[0,1],"x":[)") + ok + "]}"),
              E::None)
        << ok;
  }
  const std::vector<std::string> rejected = {"1e400", "-1e400",  std::string(400, '9'), "01", "1.", ".5", "-", "1e",
                                             "NaN",   "Infinity"};
  for (const std::string& bad : rejected) {
    EXPECT_EQ(one_entry_verdict(std::string(R"({"dtype":"U8","shape":[1],"data_offsets":[0,1],"x":)") + bad + "}"),
              kBadEntry)
        << bad;
  }
}

TEST(Integers, NegativeZeroInsideStringsIsUntouched) {
  const Report r = analyze(make_file("{" + entry("layer-0", "U8", "[1]", 0, 1) + R"(,"__metadata__":{"v":"-0"}})", 1));
  ASSERT_EQ(r.error, E::None);
  EXPECT_EQ(r.tensors[0].name, "layer-0");
  EXPECT_EQ(r.metadata[0].second, "-0");
}

}  // namespace
}  // namespace safetensors::testing
