// Findings beside the verdict: they describe, they never change `error`.
#include <gtest/gtest.h>

#include "file_builder.h"

namespace safetensors::testing {
namespace {

const Finding* find(const Report& r, FindingCode code) {
  for (const Finding& f : r.findings) {
    if (f.code == code) return &f;
  }
  return nullptr;
}

TEST(Findings, CleanFileHasNone) {
  std::string header = "{" + entry("a", "U8", "[2]", 0, 2) + "}";
  while ((8 + header.size()) % 8 != 0) header += ' ';
  EXPECT_TRUE(analyze(make_file(header, 2)).findings.empty());
}

TEST(Findings, ARejectedFileKeepsItsFindingsNoneOfThemAnError) {
  const Report r =
      analyze(make_file("{" + entry("a", "U8", "[2]", 0, 2) + "," + entry("a", "U8", "[2]", 0, 2) + "}", 3));
  ASSERT_EQ(r.error, ReferenceError::MetadataIncompleteBuffer);
  EXPECT_NE(r.error_message.find("1 extra byte"), std::string::npos) << r.error_message;
  ASSERT_NE(find(r, FindingCode::DuplicateTensorName), nullptr);
  for (const Finding& f : r.findings) EXPECT_NE(f.severity(), Severity::Error);
}

TEST(Findings, EveryCodeHasAUniqueNameAndOnlyReferenceErrorsAreErrorsInAFile) {
  // A single file's error is its reference error, and NotSafetensors beside it (only ever on a
  // rejected file: foreign_format_test.cpp); only a sharded model's codes (from
  // IndexTensorMissing on, and a pipeline's ComponentMissing) can be errors of their own, where
  // the model cannot be loaded whole.
  const int first_model_code = static_cast<int>(FindingCode::IndexTensorMissing);
  for (int i = 0; i < kFindingCodeCount; ++i) {
    const FindingCodeInfo& code = kFindingCodes[static_cast<std::size_t>(i)];
    EXPECT_FALSE(code.name.empty());
    if (i < first_model_code && i != static_cast<int>(FindingCode::NotSafetensors))
      EXPECT_NE(code.severity, Severity::Error) << code.name;
    for (int j = 0; j < kReferenceErrorCount; ++j)
      EXPECT_NE(code.name, kReferenceErrorNames[static_cast<std::size_t>(j)]);
    for (int j = 0; j < i; ++j) EXPECT_NE(code.name, kFindingCodes[static_cast<std::size_t>(j)].name);
  }
}

TEST(Findings, DuplicateTensorNameIsAWarningAndStaysLoadable) {
  const Report r = analyze(make_file("{" + entry("w", "U8", "[9]", 0, 9) + "," + entry("w", "U8", "[1]", 0, 1) + "," +
                                         entry("w", "U8", "[2]", 0, 2) + "}",
                                     2));
  EXPECT_EQ(r.error, ReferenceError::None);
  const Finding* f = find(r, FindingCode::DuplicateTensorName);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity(), Severity::Warning);
  EXPECT_EQ(f->tensor, "w");
  EXPECT_NE(f->message.find("3 times"), std::string::npos) << f->message;
}

TEST(Findings, DuplicateMetadataKeyIsAWarning) {
  const Report r = analyze(make_file(R"({"__metadata__":{"k":"1","k":"2","k":"3"}})"));
  EXPECT_EQ(r.error, ReferenceError::None);
  std::size_t count = 0;
  for (const Finding& f : r.findings) count += f.code == FindingCode::DuplicateMetadataKey;
  EXPECT_EQ(count, 1u);
}

TEST(Findings, ManyDuplicatesGiveOneFindingPerCode) {
  std::string header = "{\"__metadata__\":{";
  for (int i = 0; i < 500; ++i)
    header += (i ? "," : "") + std::string("\"k") + std::to_string(i) + "\":\"1\",\"k" + std::to_string(i) + "\":\"2\"";
  header += "}";
  for (int i = 0; i < 500; ++i)
    header += "," + entry("t" + std::to_string(i), "U8", "[0]", 0, 0) + "," +
              entry("t" + std::to_string(i), "U8", "[0]", 0, 0);
  const Report r = analyze(make_file(header + "}"));
  EXPECT_EQ(r.error, ReferenceError::None);
  std::size_t names = 0, keys = 0;
  for (const Finding& f : r.findings) {
    names += f.code == FindingCode::DuplicateTensorName;
    keys += f.code == FindingCode::DuplicateMetadataKey;
  }
  EXPECT_EQ(names, 1u);
  EXPECT_EQ(keys, 1u);
  EXPECT_NE(find(r, FindingCode::DuplicateTensorName)
                ->message.find("500 tensor names appear more than once (first: 't0' appears 2 times)"),
            std::string::npos)
      << find(r, FindingCode::DuplicateTensorName)->message;
  EXPECT_NE(find(r, FindingCode::DuplicateMetadataKey)->message.find("500 metadata keys (first: 'k0')"),
            std::string::npos);
}

TEST(Findings, TolerantEncodingsAreReported) {
  const Report r = analyze(
      make_file(R"({"a":["U8",[1],[0,1]],"b":{"dtype":{"U8":null},"shape":[1],"data_offsets":[1,2],"extra":1}})", 2));
  EXPECT_EQ(r.error, ReferenceError::None);
  ASSERT_NE(find(r, FindingCode::ArrayTensorEntry), nullptr);
  EXPECT_EQ(find(r, FindingCode::ArrayTensorEntry)->tensor, "a");
  EXPECT_NE(find(r, FindingCode::MapDtype), nullptr);
  EXPECT_NE(find(r, FindingCode::UnknownTensorField), nullptr);
}

TEST(Findings, LongNamesAreCutInMessages) {
  const std::string name(1 << 20, 'n');
  const Report r = analyze(make_file("{" + entry(name, "U8", "[2]", 0, 4) + "}", 4));
  ASSERT_EQ(r.error, ReferenceError::TensorInvalidInfo);
  EXPECT_LT(r.error_message.size(), 300u);
  ASSERT_TRUE(r.error_tensor.has_value());
  EXPECT_EQ(r.error_tensor->size(), name.size());
}

}  // namespace
}  // namespace safetensors::testing
