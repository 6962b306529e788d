// Number literals read as serde_json 1.0.89 (default features) reads them, and the
// audit that makes simdjson agree. Every verdict here was checked against
// serde_json itself (tools/serde_verdict, `make fuzz`).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "format/serde_number.h"
#include "format/serde_numbers.h"

namespace safetensors {
namespace {

using K = SerdeNumberKind;

K kind_of(const std::string& literal) {
  const SerdeNumber n = read_serde_number(literal);
  EXPECT_EQ(n.length, literal.size()) << literal;
  return n.kind;
}

TEST(SerdeNumber, IntegersKeepTheirKindUntilTheyLeave64Bits) {
  EXPECT_EQ(kind_of("0"), K::Unsigned);
  EXPECT_EQ(kind_of("18446744073709551615"), K::Unsigned);  // u64::MAX
  EXPECT_EQ(kind_of("18446744073709551616"), K::Float);     // one more: an f64
  EXPECT_EQ(kind_of("-9223372036854775808"), K::Signed);    // i64::MIN
  EXPECT_EQ(kind_of("-9223372036854775809"), K::Float);     // below it: an f64
  EXPECT_EQ(kind_of("-18446744073709551616"), K::Float);
  EXPECT_EQ(kind_of("-0"), K::Float);  // -0 is the float -0.0
  EXPECT_TRUE(std::signbit(read_serde_number("-0").value));
}

TEST(SerdeNumber, MalformedLiterals) {
  for (const std::string literal : {"01", "-", "1.", "1e", "1e+", "-a", "1.e5"})
    EXPECT_EQ(read_serde_number(literal).kind, K::Malformed) << literal;
  // Since serde_json 1.0.89 a long integer followed by a bare '.' is malformed too.
  EXPECT_EQ(read_serde_number("123456789012345678901.").kind, K::Malformed);
  // ... and a long integer with fraction digits is an ordinary float.
  EXPECT_EQ(kind_of("18446744073709551616.5"), K::Float);
}

TEST(SerdeNumber, TheEdgeOfF64FollowsSerdesArithmeticNotCorrectRounding) {
  // Correctly rounded these are DBL_MAX; serde_json's product overflows.
  EXPECT_EQ(kind_of("1.7976931348623158e308"), K::OutOfRange);
  EXPECT_EQ(kind_of("1.7976931348623159e308"), K::OutOfRange);
  EXPECT_EQ(kind_of("1.7976931348623157e308"), K::Float);
  // Correctly rounded this is infinity; serde_json's product stays finite.
  EXPECT_EQ(kind_of("179769313486231589e291"), K::Float);
  EXPECT_EQ(kind_of("1e308"), K::Float);
  EXPECT_EQ(kind_of("1e309"), K::OutOfRange);
  EXPECT_EQ(kind_of("10e308"), K::OutOfRange);
  EXPECT_EQ(kind_of("-1e309"), K::OutOfRange);
}

TEST(SerdeNumber, LongIntegersDropTheirTailDigits) {
  // 1 followed by 308 zeros: 10^19 (u64) times 10^289, which is 1e308.
  EXPECT_EQ(kind_of("1" + std::string(308, '0')), K::Float);
  EXPECT_EQ(kind_of("1" + std::string(309, '0')), K::OutOfRange);
  EXPECT_EQ(kind_of(std::string(309, '9')), K::OutOfRange);
  EXPECT_EQ(kind_of(std::string(400, '9')), K::OutOfRange);
}

TEST(SerdeNumber, TinyValuesAreZeroNeverRefused) {
  EXPECT_EQ(kind_of("1e-400"), K::Float);
  EXPECT_EQ(read_serde_number("1e-400").value, 0.0);
  EXPECT_EQ(kind_of("1e-99999999999"), K::Float);  // exponent past i32: zero
  EXPECT_EQ(kind_of("-1e-2147483648"), K::Float);
  EXPECT_EQ(kind_of("0.0000000000000000000000000001e-330"), K::Float);
}

TEST(SerdeNumber, ExponentsPastI32) {
  EXPECT_EQ(kind_of("1e99999999999"), K::OutOfRange);
  EXPECT_EQ(kind_of("0e99999999999"), K::Float);  // zero times anything
  EXPECT_EQ(kind_of("0.000e99999999999"), K::Float);
  EXPECT_EQ(kind_of("1e2147483647"), K::OutOfRange);
  EXPECT_EQ(kind_of("0e2147483647"), K::Float);
}

TEST(SerdeNumber, StopsAtTheFirstByteAfterTheLiteral) {
  EXPECT_EQ(read_serde_number("12,3").length, 2u);
  EXPECT_EQ(read_serde_number("-1.5e3]").length, 6u);
}

TEST(NumberAudit, LeavesOrdinaryNumbersAlone) {
  const NumberAudit audit =
      audit_serde_numbers(R"({"a":[0,1,-5,18446744073709551615,-9223372036854775808,1.5,-0.0,1e9,1e-400]})");
  EXPECT_FALSE(audit.rewritten);
  EXPECT_TRUE(audit.out_of_range.empty());
}

TEST(NumberAudit, RewritesWhatSimdjsonReadsOtherwise) {
  EXPECT_EQ(*audit_serde_numbers("[-0]").rewritten, "[-0.0]");
  EXPECT_EQ(*audit_serde_numbers("[18446744073709551616]").rewritten, "[0.0]");
  EXPECT_EQ(*audit_serde_numbers("[-9223372036854775809,1]").rewritten, "[-0.0,1]");
  // serde_json accepts it, a correctly rounded reader finds infinity.
  EXPECT_EQ(*audit_serde_numbers("[179769313486231589e291]").rewritten, "[0.0]");
}

TEST(NumberAudit, NamesTheFirstLiteralOutOfRange) {
  const NumberAudit audit = audit_serde_numbers("[1, 1.7976931348623158e308, 1e999]");
  EXPECT_EQ(audit.out_of_range, "1.7976931348623158e308");
  EXPECT_FALSE(audit.rewritten);
  EXPECT_EQ(audit_serde_numbers("[" + std::string(400, '9') + "]").out_of_range.size(), 48u + 3u);  // ends in "…"
}

TEST(NumberAudit, IgnoresStringsAndEscapedQuotes) {
  EXPECT_FALSE(audit_serde_numbers(R"({"x-0":"\"-0 1e999 123456789012345678901234567890"})").rewritten);
  EXPECT_TRUE(audit_serde_numbers(R"({"x-0":"\"-0 1e999"})").out_of_range.empty());
  EXPECT_EQ(*audit_serde_numbers(R"({"a\"":-0})").rewritten, R"({"a\"":-0.0})");
}

TEST(NumberAudit, LeavesMalformedLiteralsForTheParserToReject) {
  EXPECT_FALSE(audit_serde_numbers("[00000000000000000000000000001]").rewritten);
  EXPECT_FALSE(audit_serde_numbers("[123456789012345678901.]").rewritten);
}

}  // namespace
}  // namespace safetensors
