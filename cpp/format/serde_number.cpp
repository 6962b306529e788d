// serde_json 1.0.89's number reader without `float_roundtrip` (see serde_number.h),
// step for step, so that every literal gets serde_json's kind and verdict.
#include "format/serde_number.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace safetensors {
namespace {

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
constexpr std::int32_t kI32Max = std::numeric_limits<std::int32_t>::max();
constexpr int kMaxPower = 308;

// serde_json's POW10: 1e0 .. 1e308, each the correctly rounded double.
const std::array<double, kMaxPower + 1>& powers_of_ten() {
  static const std::array<double, kMaxPower + 1> table = [] {
    std::array<double, kMaxPower + 1> t{};
    for (int k = 0; k <= kMaxPower; ++k) t[k] = std::strtod(("1e" + std::to_string(k)).c_str(), nullptr);
    return t;
  }();
  return table;
}

// serde_json's overflow! check: would acc * 10 + digit pass `max`?
template <typename T>
bool would_overflow(T acc, T digit, T max) {
  return acc >= max / 10 && (acc > max / 10 || digit > max % 10);
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  SerdeNumber read() {
    bool positive = true;
    if (peek() == '-') {
      ++pos_;
      positive = false;
    }
    return finish(integer(positive));
  }

 private:
  // peek_or_null: the next byte, or 0 at the end.
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void skip_digits() {
    while (is_digit(peek())) ++pos_;
  }
  SerdeNumber finish(SerdeNumber n) const {
    n.length = pos_;
    return n;
  }
  static SerdeNumber of(SerdeNumberKind kind, double value = 0) {
    SerdeNumber n;
    n.kind = kind;
    n.value = value;
    return n;
  }

  SerdeNumber integer(bool positive) {
    if (pos_ >= text_.size()) return of(SerdeNumberKind::Malformed);
    const char first = text_[pos_++];
    if (first == '0') return is_digit(peek()) ? of(SerdeNumberKind::Malformed) : number(positive, 0);
    if (!is_digit(first)) return of(SerdeNumberKind::Malformed);
    std::uint64_t significand = static_cast<std::uint64_t>(first - '0');
    while (is_digit(peek())) {
      const auto digit = static_cast<std::uint64_t>(peek() - '0');
      if (would_overflow(significand, digit, kU64Max)) return long_integer(positive, significand);
      ++pos_;
      significand = significand * 10 + digit;
    }
    return number(positive, significand);
  }

  SerdeNumber number(bool positive, std::uint64_t significand) {
    const char c = peek();
    if (c == '.') return decimal(positive, significand, 0);
    if (c == 'e' || c == 'E') return exponent(positive, significand, 0);
    if (positive) return of(SerdeNumberKind::Unsigned);
    // (significand as i64).wrapping_neg() >= 0: -0 and values below i64 become floats.
    const bool fits_i64 = significand != 0 && significand <= (std::uint64_t{1} << 63);
    return fits_i64 ? of(SerdeNumberKind::Signed) : of(SerdeNumberKind::Float, -static_cast<double>(significand));
  }

  // More integer digits than a u64 holds: each further digit raises the exponent.
  SerdeNumber long_integer(bool positive, std::uint64_t significand) {
    std::int32_t exp = 0;
    while (is_digit(peek())) {
      ++pos_;
      ++exp;  // a header holds at most 1e8 bytes, far below i32's range
    }
    const char c = peek();
    if (c == '.') return decimal(positive, significand, exp);
    if (c == 'e' || c == 'E') return exponent(positive, significand, exp);
    return from_parts(positive, significand, exp);
  }

  SerdeNumber decimal(bool positive, std::uint64_t significand, std::int32_t exp_before_point) {
    ++pos_;  // '.'
    std::int32_t exp_after_point = 0;
    while (is_digit(peek())) {
      const auto digit = static_cast<std::uint64_t>(peek() - '0');
      if (would_overflow(significand, digit, kU64Max)) {
        skip_digits();  // parse_decimal_overflow drops the remaining digits
        const char c = peek();
        const std::int32_t exp = exp_before_point + exp_after_point;
        return (c == 'e' || c == 'E') ? exponent(positive, significand, exp) : from_parts(positive, significand, exp);
      }
      ++pos_;
      significand = significand * 10 + digit;
      --exp_after_point;
    }
    // At least one digit after the point (since 1.0.89 also after a long integer).
    if (exp_after_point == 0) return of(SerdeNumberKind::Malformed);
    const std::int32_t exp = exp_before_point + exp_after_point;
    const char c = peek();
    return (c == 'e' || c == 'E') ? exponent(positive, significand, exp) : from_parts(positive, significand, exp);
  }

  SerdeNumber exponent(bool positive, std::uint64_t significand, std::int32_t starting_exp) {
    ++pos_;  // 'e' or 'E'
    bool positive_exp = true;
    if (peek() == '+' || peek() == '-') positive_exp = text_[pos_++] == '+';
    if (!is_digit(peek())) return of(SerdeNumberKind::Malformed);
    std::int32_t exp = text_[pos_++] - '0';
    while (is_digit(peek())) {
      const std::int32_t digit = text_[pos_++] - '0';
      if (would_overflow(exp, digit, kI32Max)) {
        // parse_exponent_overflow: infinity is refused, anything else is zero.
        skip_digits();
        if (significand != 0 && positive_exp) return of(SerdeNumberKind::OutOfRange);
        return of(SerdeNumberKind::Float, positive ? 0.0 : -0.0);
      }
      exp = exp * 10 + digit;
    }
    const std::int64_t wide = positive_exp ? std::int64_t{starting_exp} + exp : std::int64_t{starting_exp} - exp;
    const std::int64_t saturated = std::clamp<std::int64_t>(wide, std::numeric_limits<std::int32_t>::min(),
                                                            std::numeric_limits<std::int32_t>::max());
    return from_parts(positive, significand, static_cast<std::int32_t>(saturated));
  }

  // f64_from_parts: one rounding to f64, then one multiplication or division per
  // power of ten (several divisions by 1e308 for exponents below -308).
  static SerdeNumber from_parts(bool positive, std::uint64_t significand, std::int32_t exp) {
    const auto& pow10 = powers_of_ten();
    double f = static_cast<double>(significand);
    std::int64_t e = exp;
    for (;;) {
      const std::int64_t magnitude = e < 0 ? -e : e;
      if (magnitude <= kMaxPower) {
        if (e >= 0) {
          f *= pow10[static_cast<std::size_t>(magnitude)];
          if (std::isinf(f)) return of(SerdeNumberKind::OutOfRange);
        } else {
          f /= pow10[static_cast<std::size_t>(magnitude)];
        }
        break;
      }
      if (f == 0.0) break;
      if (e >= 0) return of(SerdeNumberKind::OutOfRange);
      f /= pow10[kMaxPower];
      e += kMaxPower;
    }
    return of(SerdeNumberKind::Float, positive ? f : -f);
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

SerdeNumber read_serde_number(std::string_view text) { return Reader(text).read(); }

}  // namespace safetensors
