// Hostile headers in the native core (run under ASan/UBSan too): each gets its
// reference verdict, without crashing, wrapping or reading out of bounds.
#include <gtest/gtest.h>

#include "file_builder.h"

namespace safetensors::testing {
namespace {

TEST(Hostile, NestingTenThousandDeepAnywhere) {
  const std::string arrays = std::string(10000, '[') + std::string(10000, ']');
  std::string objects;
  for (int i = 0; i < 10000; ++i) objects += "{\"a\":";
  objects += "1" + std::string(10000, '}');
  for (const std::string& header :
       {"{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1],\"x\":" + arrays + "}}",
        "{\"__metadata__\":{\"k\":" + arrays + "}}", "{\"k\":" + objects + "}", arrays, "{\"k\":" + arrays}) {
    const Report r = analyze(make_file(header, 1));
    EXPECT_EQ(r.error, ReferenceError::InvalidHeaderDeserialization) << header.substr(0, 40);
  }
}

TEST(Hostile, OneHundredMillionSpaces) {
  const Report r = analyze(make_file(std::string(100000000, ' ')));
  EXPECT_EQ(r.error, ReferenceError::InvalidHeaderDeserialization);
  EXPECT_NE(r.error_message.find("only whitespace"), std::string::npos);
}

TEST(Hostile, AHundredThousandTensorsAndFindingsStayBounded) {
  std::string header = "{";
  for (int i = 0; i < 100000; ++i)
    header += (i ? "," : "") + entry("t" + std::to_string(i), "F32", "[]", 4u * i, 4u * i + 4);
  const Report r = analyze(make_file(header + "}", 400000));
  EXPECT_EQ(r.error, ReferenceError::None);
  EXPECT_EQ(r.tensors.size(), 100000u);
  std::size_t text = 0;
  for (const Finding& f : r.findings) text += f.message.size();
  EXPECT_LT(r.findings.size(), 10u);  // aggregated, not one per tensor
  EXPECT_LT(text, 4000u);
}

TEST(Hostile, EveryShapeOrderOfTwoHugeDimensionsAndAZero) {
  const std::string big = "4294967296";
  struct Case {
    std::string shape;
    ReferenceError error;
  };
  for (const Case& c : {Case{"[" + big + "," + big + ",0]", ReferenceError::ValidationOverflow},
                        Case{"[" + big + ",0," + big + "]", ReferenceError::None},
                        Case{"[0," + big + "," + big + "]", ReferenceError::None},
                        Case{"[18446744073709551615,2,0]", ReferenceError::ValidationOverflow},
                        Case{"[18446744073709551615,0,2]", ReferenceError::None}}) {
    EXPECT_EQ(verdict(make_file("{" + entry("t", "U8", c.shape, 0, 0) + "}")), c.error) << c.shape;
  }
}

TEST(Hostile, InvalidUtf8InNamesKeysAndValues) {
  for (const std::string& bad :
       {std::string("\xff"), std::string("\xc0\xaf"), std::string("\xed\xa0\x80"), std::string("\xe2\x82")}) {
    for (const std::string& header :
         {"{" + entry("a" + bad, "U8", "[1]", 0, 1) + "}", "{\"__metadata__\":{\"k" + bad + "\":\"v\"}}",
          "{\"__metadata__\":{\"k\":\"v" + bad + "\"}}"}) {
      EXPECT_EQ(verdict(make_file(header, 1)), ReferenceError::InvalidHeader);
    }
  }
}

}  // namespace
}  // namespace safetensors::testing
