// libFuzzer target: the whole header analysis (steps 1-7, findings, the JS table)
// on arbitrary bytes with an arbitrary claimed file size.
//
// Input layout: byte 0 chooses the claimed size (even: exactly the bytes given;
// odd: the bytes given plus the next 8 bytes read as a u64), the rest is the file start.
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "header_table.h"
#include "report.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::span<const std::uint8_t> input(data + 1, size - 1);
  std::uint64_t file_size = input.size();
  if ((data[0] & 1) != 0 && input.size() >= 8) {
    std::uint64_t extra = 0;
    std::memcpy(&extra, input.data(), 8);
    input = input.subspan(8);
    file_size = input.size() + (extra >> (data[0] >> 1 & 63));  // spread claimed sizes over all scales
    if (file_size < input.size()) file_size = UINT64_MAX;        // wrapped: the largest claim
  }
  const safetensors::Report report = safetensors::analyze_header(input, file_size);
  // Invariants that must hold for every input.
  if (report.error == safetensors::ReferenceError::None) {
    if (!report.findings.empty() && report.findings[0].severity == safetensors::Severity::Error) __builtin_trap();
    std::uint64_t at = 0;
    for (const auto& t : report.tensors) {
      if (t.begin != at || t.end < t.begin) __builtin_trap();
      at = t.end;
    }
    if (report.data_start + at != file_size) __builtin_trap();
  } else if (report.findings.empty() || report.findings[0].severity != safetensors::Severity::Error) {
    __builtin_trap();
  }
  // Exactly one error finding, first, when rejected; none otherwise. Findings are
  // aggregated per code, so their number and sizes stay small whatever the header.
  for (std::size_t i = 1; i < report.findings.size(); ++i) {
    if (report.findings[i].severity == safetensors::Severity::Error) __builtin_trap();
  }
  if (report.findings.size() > 32) __builtin_trap();
  for (const auto& f : report.findings) {
    if (f.message.size() > 2000 || f.code.empty()) __builtin_trap();
  }
  std::vector<std::uint8_t> table;
  safetensors::encode_header_table(report, table);
  return 0;
}
