// Differential test of our header JSON verdict against serde_json itself (make fuzz).
//
//   serde_differential generate COUNT SEED   one header per line: number literals and
//                                            nesting shapes at serde_json's edges
//   serde_differential compare               reads "V<TAB>header" lines (V: 1 accepted,
//                                            0 refused, from tools/serde_verdict) and
//                                            reports every header where we differ
//
// tools/serde_verdict is built from Debian's serde_json 1.0.87; the reference crate's
// verdicts come from 1.0.89, which changed one rule (serde-rs/json#953): an integer
// past u64 followed by '.' must have a digit after the point, and its fraction
// digits no longer count against that check. `compare` applies that change to the
// checker's verdict where it matters (see version_rule).
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <random>
#include <span>
#include <string>
#include <string_view>

#include "format/header_json.h"

namespace {

using safetensors::JsonOutcome;
using safetensors::parse_header_json;

class Generator {
 public:
  explicit Generator(std::uint64_t seed) : rng_(seed) {}

  std::string header() {
    const int pick = below(100);
    if (pick < 12) return nesting_case();
    const std::string literal = number();
    const std::string_view entry_start = R"({"t":{"dtype":"F32",)";
    if (pick < 17) return std::string(entry_start) + R"("shape":[)" + literal + R"(],"data_offsets":[0,4]}})";
    if (pick < 22) return std::string(entry_start) + R"("shape":[],"data_offsets":[0,)" + literal + "]}}";
    if (pick < 32) return with_ignored_field(R"([1,)" + literal + R"(,"s",{"k":)" + number() + "}]");
    return with_ignored_field(literal);
  }

 private:
  int below(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  char digit() { return static_cast<char>('0' + below(10)); }
  std::string digits(int count) {
    std::string s;
    for (int i = 0; i < count; ++i) s += digit();
    return s;
  }
  // 1..max digits, the first nonzero; lengths skew short (most literals are short).
  std::string integer_digits(int max) {
    const int length = 1 + (below(3) == 0 ? below(max) : below(25));
    return static_cast<char>('1' + below(9)) + digits(length - 1);
  }

  static std::string with_ignored_field(const std::string& value) {
    return R"({"t":{"dtype":"F32","shape":[],"data_offsets":[0,4],"x":)" + value + "}}";
  }

  std::string exponent_for(int decimal_places_of_value) {
    std::string e = below(2) ? "e" : "E";
    const int pick = below(10);
    long long exp = 0;
    if (pick < 4)
      exp = 308 - decimal_places_of_value + below(7) - 3;  // near the top of f64
    else if (pick < 6)
      exp = -308 - decimal_places_of_value + below(31) - 15;  // near the bottom
    else if (pick < 8)
      exp = (below(2) ? 1 : -1) * (2147483647LL - 2 + below(5) + below(2) * 99999999999LL);
    else
      exp = below(401) - 200;
    if (exp < 0) return e + "-" + std::to_string(-exp);
    return e + (below(2) ? "+" : "") + std::to_string(exp);
  }

  std::string number() {
    std::string sign = below(3) == 0 ? "-" : "";
    const int pick = below(100);
    if (pick < 30) {  // the neighbourhood of DBL_MAX, in many spellings
      const std::string mantissa = "1797693134862315" + digits(1 + below(40));
      const int point = 1 + below(static_cast<int>(mantissa.size()));
      std::string literal = mantissa.substr(0, point);
      if (point < static_cast<int>(mantissa.size())) literal += "." + mantissa.substr(point);
      const long long exp = 308 - (point - 1) + (below(4) == 0 ? below(3) - 1 : 0);
      if (exp == 0) return sign + literal;
      return sign + literal + (below(2) ? "e" : "E") + std::to_string(exp);
    }
    if (pick < 40) {  // a long integer around 10^308
      return sign + integer_digits(1) + digits(305 + below(6));
    }
    if (pick < 50) {  // integers at the u64 and i64 limits, some with a tail
      std::string base = below(2) ? "18446744073709551" : "9223372036854775";
      std::string literal = base + digits(3 + below(2));
      if (below(3) == 0) literal += below(2) ? "." + digits(below(3)) : exponent_for(0);
      return sign + literal;
    }
    // Random decimals: 1-800 mantissa digits, exponents near +-308 and past i32.
    std::string integer = below(5) == 0 ? "0" : integer_digits(800);
    std::string literal = integer;
    int places = static_cast<int>(integer.size()) - 1;
    if (below(2)) {
      const std::string fraction = below(50) == 0 ? ""
                                                  : (below(4) == 0 ? std::string(below(40), '0') : "") +
                                                        digits(1 + below(below(3) == 0 ? 800 : 20));
      literal += "." + fraction;
      if (integer == "0") places = -1;
    }
    if (below(10) < 7) literal += exponent_for(places);
    return sign + literal;
  }

  std::string nesting_case() {
    static const char* const kLeaves[] = {"1",  "-0", "1.5e308", "\"s\"",     "null", "true",
                                          "[]", "{}", "[1]",     "{\"a\":1}", "[[]]", "1e999"};
    const int depth = 120 + below(11);  // containers counting the outer object and the entry
    std::string open, close;
    for (int i = 0; i < depth - 2; ++i) {
      const bool array = below(2) == 0;
      open += array ? "[" : R"({"k":)";
      close.insert(0, array ? "]" : "}");
      if (below(40) == 0) open += R"("side",)";  // a sibling before the deeper value
    }
    std::string value = open + kLeaves[below(std::size(kLeaves))] + close;
    // Some shapes are invalid JSON (a sibling after '{"k":'); both parsers must refuse them.
    return with_ignored_field(value);
  }

  std::mt19937_64 rng_;
};

// Integer digits starting at `at` (after an optional '-'), and what follows them.
bool exceeds_u64(std::string_view integer) {
  constexpr std::string_view kMax = "18446744073709551615";
  return integer.size() > kMax.size() || (integer.size() == kMax.size() && integer > kMax);
}

enum class VersionRule { Same, Refused, Unknown };

// Where serde_json 1.0.89 and 1.0.87 can differ: a literal whose integer part passes
// u64 and is followed by '.'. A bare '.' is refused by 1.0.89 (Refused); a fraction
// digit that 1.0.87 still folds into the significand makes it refuse what 1.0.89
// reads as a float, whose verdict the checker cannot give (Unknown).
VersionRule version_rule(std::string_view line) {
  VersionRule rule = VersionRule::Same;
  bool in_string = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
      continue;
    }
    if (c < '0' || c > '9' || (i > 0 && line[i - 1] >= '0' && line[i - 1] <= '9')) continue;
    std::size_t end = i;
    while (end < line.size() && line[end] >= '0' && line[end] <= '9') ++end;
    const std::string_view integer = line.substr(i, end - i);
    if (exceeds_u64(integer) && end < line.size() && line[end] == '.') {
      const bool digit_after = end + 1 < line.size() && line[end + 1] >= '0' && line[end + 1] <= '9';
      if (!digit_after) return VersionRule::Refused;
      const bool folded =
          integer.size() == 20 && integer.substr(0, 19) == "1844674407370955161" && line[end + 1] <= '5';
      if (folded) rule = VersionRule::Unknown;
    }
    i = end;
  }
  return rule;
}

int compare() {
  std::string line;
  long long compared = 0, accepted = 0, disagreements = 0, version_adjusted = 0, unknown = 0;
  while (std::getline(std::cin, line)) {
    if (line.size() < 2 || line[1] != '\t') {
      std::cerr << "malformed input line\n";
      return 2;
    }
    bool reference = line[0] == '1';
    const std::string_view header = std::string_view(line).substr(2);
    const VersionRule rule = version_rule(header);
    if (rule == VersionRule::Unknown) {
      ++unknown;
      continue;
    }
    if (rule == VersionRule::Refused && reference) {
      reference = false;
      ++version_adjusted;
    }
    const auto bytes = std::span(reinterpret_cast<const std::uint8_t*>(header.data()), header.size());
    const bool ours = parse_header_json(bytes, false).outcome == JsonOutcome::Parsed;
    ++compared;
    accepted += reference ? 1 : 0;
    if (ours != reference) {
      if (++disagreements <= 20)
        std::cout << "DISAGREE serde_json " << (reference ? "accepts" : "refuses") << ", we "
                  << (ours ? "accept" : "refuse") << ": " << header.substr(0, 400) << "\n";
    }
  }
  std::cout << compared << " headers compared with serde_json (" << accepted << " accepted by it, "
            << compared - accepted << " refused), " << disagreements << " disagreements (" << version_adjusted
            << " verdicts set by the 1.0.89 rule, " << unknown
            << " left out where 1.0.87 cannot tell 1.0.89's verdict)\n";
  return disagreements == 0 && compared > 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string_view mode = argc > 1 ? argv[1] : "";
  if (mode == "generate" && argc == 4) {
    Generator generator(std::strtoull(argv[3], nullptr, 10));
    const long long count = std::atoll(argv[2]);
    std::string out;
    for (long long i = 0; i < count; ++i) {
      out += generator.header();
      out += '\n';
      if (out.size() > (1u << 20)) {
        std::fwrite(out.data(), 1, out.size(), stdout);
        out.clear();
      }
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
  }
  if (mode == "compare" && argc == 2) return compare();
  std::cerr << "usage: serde_differential generate COUNT SEED | serde_differential compare\n";
  return 2;
}
