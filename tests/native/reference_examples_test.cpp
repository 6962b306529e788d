// The examples from the reference's own tests, as listed in docs/reference-rules.md.
#include <gtest/gtest.h>

#include "file_builder.h"

namespace safetensors::testing {
namespace {

using E = ReferenceError;
constexpr const char* kI32Header = R"({"test":{"dtype":"I32","shape":[2,2],"data_offsets":[0,16]}})";

TEST(ReferenceExamples, OneI32Tensor) {
  ASSERT_EQ(std::string_view(kI32Header).size(), 60u);
  const Report r = analyze(make_file(kI32Header, 16));
  EXPECT_EQ(r.error, E::None);
  ASSERT_EQ(r.tensors.size(), 1u);
  EXPECT_EQ(r.tensors[0].name, "test");
  EXPECT_EQ(r.tensors[0].dtype, Dtype::I32);
  EXPECT_EQ(r.tensors[0].shape, (std::vector<std::uint64_t>{2, 2}));
  EXPECT_EQ(r.data_start, 68u);
  // Data at byte 68 is 4-aligned for I32 but not 8-aligned: the one finding, an info.
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].code, FindingCode::HeaderNotPadded);
  EXPECT_EQ(r.findings[0].severity(), Severity::Info);
}

TEST(ReferenceExamples, ExtraOrMissingDataBytes) {
  EXPECT_EQ(verdict(make_file(kI32Header, 17)), E::MetadataIncompleteBuffer);
  EXPECT_EQ(verdict(make_file(kI32Header, 14)), E::MetadataIncompleteBuffer);
}

TEST(ReferenceExamples, OnlyTheLengthBytes) { EXPECT_EQ(verdict(length_prefix(60)), E::InvalidHeaderLength); }

TEST(ReferenceExamples, OneInvalidByte) { EXPECT_EQ(verdict(length_prefix(1) + "\xff"), E::InvalidHeader); }

TEST(ReferenceExamples, OneOpeningBrace) {
  EXPECT_EQ(verdict(length_prefix(1) + "{"), E::InvalidHeaderDeserialization);
}

TEST(ReferenceExamples, EmptyShapeWithZeroDim) {
  EXPECT_EQ(verdict(make_file(R"({"test":{"dtype":"I32","shape":[2,0],"data_offsets":[0,0]}})")), E::None);
}

TEST(ReferenceExamples, WriterOutputForAttn0) {
  const std::string header = R"({"attn.0":{"dtype":"F32","shape":[1,2,3],"data_offsets":[0,24]}})";
  ASSERT_EQ(header.size(), 64u);
  EXPECT_EQ(verdict(make_file(header, 24)), E::None);
}

TEST(ReferenceExamples, WriterOutputWithoutTensors) {
  EXPECT_EQ(verdict(make_file("{}      ")), E::None);
  const std::string with_metadata = R"({"__metadata__":{"framework":"pt"}})";
  const std::string padded = with_metadata + std::string(40 - with_metadata.size(), ' ');
  const Report r = analyze(make_file(padded));
  EXPECT_EQ(r.error, E::None);
  EXPECT_EQ(r.header_length, 40u);
}

}  // namespace
}  // namespace safetensors::testing
