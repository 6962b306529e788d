// A small writer of compact JSON for the card (card_json.cpp): commas and nesting kept for the
// caller, numbers exact where they are whole.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace safetensors {

/// @brief Appends `s` as a JSON string literal (quotes, backslashes and control characters
/// escaped; the text is UTF-8 already, as every header string is).
void write_json_string(std::string_view s, std::string& out);

/// @brief Writes JSON values into a string, in order.
class Json {
 public:
  explicit Json(std::string& out) : out_(out) {}

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }

  void key(std::string_view k) {
    comma();
    write_json_string(k, out_);
    out_ += ':';
    after_key_ = true;
  }

  void string(std::string_view s) {
    comma();
    write_json_string(s, out_);
  }

  /// @brief A finite number: integers below 9e15 exactly, others in a form that reads back as
  /// the same double; null for NaN and infinities.
  void number(double v);

  void boolean(bool v) {
    comma();
    out_ += v ? "true" : "false";
  }

  void null() {
    comma();
    out_ += "null";
  }

  void optional_string(const std::optional<std::string>& s) { s ? string(*s) : null(); }
  void optional_number(const std::optional<double>& v) { v ? number(*v) : null(); }

  void string_array(const std::vector<std::string>& items) {
    begin_array();
    for (const std::string& s : items) string(s);
    end_array();
  }

 private:
  void comma() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (need_comma_) out_ += ',';
    need_comma_ = true;
  }
  void open(char c) {
    comma();
    out_ += c;
    need_comma_ = false;
  }
  void close(char c) {
    out_ += c;
    need_comma_ = true;
  }

  std::string& out_;
  bool need_comma_ = false;
  bool after_key_ = false;
};

}  // namespace safetensors
