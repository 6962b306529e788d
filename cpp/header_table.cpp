// Writer for the JS header table (see header_table.h for the layout).
#include "header_table.h"

#include <cstring>
#include <string>
#include <string_view>

namespace safetensors {
namespace {

constexpr std::uint64_t kMaxSafeInteger = (std::uint64_t{1} << 53) - 1;

// UTF-16 code units of valid UTF-8 text: every byte but continuation bytes starts a code
// point, and 4-byte sequences become surrogate pairs. Runs of ASCII go 8 bytes at a time.
std::uint64_t utf16_length(std::string_view s) {
  std::uint64_t units = 0;
  std::size_t i = 0;
  while (i < s.size()) {
    if (i + 8 <= s.size()) {
      std::uint64_t word;
      std::memcpy(&word, s.data() + i, 8);
      if ((word & 0x8080808080808080ull) == 0) {
        units += 8;
        i += 8;
        continue;
      }
    }
    const auto c = static_cast<unsigned char>(s[i++]);
    if ((c & 0xC0) != 0x80) units += (c >= 0xF0) ? 2 : 1;
  }
  return units;
}

class TableWriter {
 public:
  void number(double v) { numbers_.push_back(v); }

  void string(std::string_view s) {
    number(static_cast<double>(utf16_length_));
    text_.append(s);
    utf16_length_ += utf16_length(s);
    number(static_cast<double>(utf16_length_));
  }

  void finish(std::vector<std::uint8_t>& out) const {
    const auto count = static_cast<std::uint32_t>(numbers_.size());
    const auto text_bytes = static_cast<std::uint32_t>(text_.size());
    out.resize(8 + numbers_.size() * 8 + text_.size());
    std::memcpy(out.data(), &count, 4);
    std::memcpy(out.data() + 4, &text_bytes, 4);
    std::memcpy(out.data() + 8, numbers_.data(), numbers_.size() * 8);
    std::memcpy(out.data() + 8 + numbers_.size() * 8, text_.data(), text_.size());
  }

 private:
  std::vector<double> numbers_;
  std::string text_;
  std::uint64_t utf16_length_ = 0;
};

void write_tensor(TableWriter& w, const TensorEntry& t) {
  w.string(t.name);
  w.number(static_cast<double>(t.dtype));
  w.number(static_cast<double>(t.shape.size()));
  bool exact_needed = false;
  for (std::uint64_t d : t.shape) {
    w.number(static_cast<double>(d));
    exact_needed |= d > kMaxSafeInteger;
  }
  w.number(static_cast<double>(t.begin));
  w.number(static_cast<double>(t.end));
  w.number(exact_needed ? 1 : 0);
  if (exact_needed) {
    for (std::uint64_t d : t.shape) w.string(std::to_string(d));
  }
}

}  // namespace

void encode_header_table(const Report& report, std::vector<std::uint8_t>& out) {
  TableWriter w;
  w.number(kHeaderTableVersion);
  w.number(kDtypeCount);
  for (int i = 0; i < kDtypeCount; ++i) w.string(dtype_name(static_cast<Dtype>(i)));
  w.string(reference_error_name(report.error));
  w.number(static_cast<double>(report.file_size));
  w.number(static_cast<double>(report.header_length));
  w.number(static_cast<double>(report.data_start));
  w.number(report.header_parsed ? 1 : 0);
  w.number(static_cast<double>(report.findings.size()));
  for (const Finding& f : report.findings) {
    w.string(f.code);
    w.number(static_cast<double>(f.severity));
    w.string(f.message);
    w.number(f.has_tensor ? 1 : 0);
    if (f.has_tensor) w.string(f.tensor);
  }
  if (!report.has_metadata) {
    w.number(-1);
  } else {
    w.number(static_cast<double>(report.metadata.size()));
    for (const auto& [key, value] : report.metadata) {
      w.string(key);
      w.string(value);
    }
  }
  w.number(static_cast<double>(report.tensors.size()));
  for (const TensorEntry& t : report.tensors) write_tensor(w, t);
  w.finish(out);
}

}  // namespace safetensors
