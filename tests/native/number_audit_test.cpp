// The literal rewrite that makes simdjson read numbers as serde_json does.
#include <gtest/gtest.h>

#include "format/serde_numbers.h"

namespace safetensors {
namespace {

TEST(NumberAudit, LeavesOrdinaryNumbersAlone) {
  EXPECT_FALSE(rewrite_serde_numbers(R"({"a":[0,1,-5,18446744073709551615,-9223372036854775808,1.5,-0.0,1e9]})"));
}

TEST(NumberAudit, RewritesNegativeZeroAndHugeIntegers) {
  EXPECT_EQ(*rewrite_serde_numbers("[-0]"), "[-0.0]");
  EXPECT_EQ(*rewrite_serde_numbers("[18446744073709551616]"), "[0.0]");
  EXPECT_EQ(*rewrite_serde_numbers("[-9223372036854775809,1]"), "[-0.0,1]");
  EXPECT_EQ(*rewrite_serde_numbers("[" + std::string(400, '9') + "]"), "[1e400]");
}

TEST(NumberAudit, IgnoresStringsAndEscapedQuotes) {
  EXPECT_FALSE(rewrite_serde_numbers(R"({"x-0":"\"-0 123456789012345678901234567890"})"));
  EXPECT_EQ(*rewrite_serde_numbers(R"({"a\"":-0})"), R"({"a\"":-0.0})");
}

TEST(NumberAudit, LeavesMalformedLiteralsForTheParserToReject) {
  EXPECT_FALSE(rewrite_serde_numbers("[00000000000000000000000000001]"));
  EXPECT_FALSE(rewrite_serde_numbers("[-0e5, 123456789012345678901234567890.5]"));
}

}  // namespace
}  // namespace safetensors
