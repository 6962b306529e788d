// The data scan's findings: counted per tensor, one finding per code naming the first.
#include <gtest/gtest.h>

#include "findings/scan_findings.h"

namespace safetensors {
namespace {

ValueCounts counts(std::uint64_t nan, std::uint64_t pos, std::uint64_t neg, bool nonzero) {
  ValueCounts c;
  c.nan = nan;
  c.pos_inf = pos;
  c.neg_inf = neg;
  c.nonzero = nonzero;
  return c;
}

TEST(ScanFindings, NothingFoundGivesNoFindings) {
  ScanTally tally;
  tally.add(0, Dtype::F32, counts(0, 0, 0, true));
  EXPECT_TRUE(tally.findings("", "").empty());
}

TEST(ScanFindings, OneFindingPerCodeNamingTheFirstTensorAndItsCounts) {
  ScanTally tally;
  tally.add(0, Dtype::F32, counts(0, 0, 0, true));
  tally.add(1, Dtype::F32, counts(1, 1, 2, true));
  tally.add(2, Dtype::F32, counts(0, 0, 0, false));
  tally.add(3, Dtype::F32, counts(1234, 0, 0, true));
  tally.add(4, Dtype::F32, counts(0, 0, 0, false));
  EXPECT_EQ(tally.first_nonfinite(), 1u);
  EXPECT_EQ(tally.first_zero(), 2u);
  const auto found = tally.findings("bad", "bias");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].code, FindingCode::NonFiniteValues);
  EXPECT_EQ(found[0].severity(), Severity::Warning);
  EXPECT_EQ(found[0].tensor, "bad");
  EXPECT_NE(found[0].message.find("2 tensors hold NaN or infinite values (first: 'bad', 1 NaN, 1 +inf, 2 -inf)"),
            std::string::npos)
      << found[0].message;
  EXPECT_EQ(found[1].code, FindingCode::AllZeroTensor);
  EXPECT_EQ(found[1].severity(), Severity::Info);
  EXPECT_NE(found[1].message.find("2 tensors are all zeros (first: 'bias')"), std::string::npos) << found[1].message;
}

TEST(ScanFindings, CountsUseTheSharedNumberFormat) {
  ScanTally tally;
  tally.add(7, Dtype::F32, counts(1234567, 0, 0, true));
  const auto found = tally.findings(std::string(200, 'n'), "");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].message.find("1 tensor holds"), std::string::npos);
  EXPECT_NE(found[0].message.find("1,234,567 NaN"), std::string::npos) << found[0].message;
  EXPECT_NE(found[0].message.find("'" + std::string(80, 'n') + "...'"), std::string::npos);  // long names cut
}

TEST(ScanFindings, ABoolMaskOfAllFalseIsNotAnAllZeroTensor) {
  ScanTally tally;
  tally.add(0, Dtype::BOOL, counts(0, 0, 0, false));
  EXPECT_EQ(tally.zero_tensors(), 0u);
  EXPECT_TRUE(tally.findings("", "").empty());
  tally.add(1, Dtype::U8, counts(0, 0, 0, false));  // integers of zeros still are
  const auto found = tally.findings("", "ids");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].code, FindingCode::AllZeroTensor);
  EXPECT_EQ(found[0].tensor, "ids");
}

}  // namespace
}  // namespace safetensors
