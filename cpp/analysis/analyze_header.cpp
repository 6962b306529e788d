// The reference checks in order (steps 1-7 of docs/reference-rules.md). The first failing
// step is the verdict; findings are gathered from whatever could be read, and a rejected file
// that is another format altogether says so first (NotSafetensors).
#include "analysis/analyze_header.h"

#include <utility>

#include "analysis/foreign_format.h"
#include "findings/header_findings.h"
#include "findings/layout_findings.h"
#include "findings/metadata_findings.h"
#include "findings/reference_messages.h"
#include "format/duplicates.h"
#include "format/header_json.h"
#include "format/header_prefix.h"
#include "format/tensor_layout.h"
#include "format/utf8.h"

namespace safetensors {
namespace {

// Records the verdict and hands the report back (moved: it may hold 10^6 tensors).
Report reject(Report& report, ReferenceError error, std::string message, const std::string* tensor = nullptr) {
  report.error = error;
  report.error_message = std::move(message);
  if (tensor != nullptr) report.error_tensor = *tensor;
  return std::move(report);
}

// Steps 1-7 (analyze_header adds what it tells of a rejected file's format).
Report check_file(std::span<const std::uint8_t> file_start, std::uint64_t file_size, bool padded) {
  Report report;
  report.file_size = file_size;

  // Steps 1-3: the length prefix against the limit and the file size.
  const HeaderExtent extent = read_header_extent(file_start, file_size);
  report.header_length = extent.header_length;
  if (extent.error != ReferenceError::None) {
    const bool header_starts = looks_like_safetensors(file_start, file_size);
    return reject(report, extent.error, prefix_message(extent.error, extent.header_length, file_size, header_starts));
  }
  report.data_start = kLengthPrefixSize + extent.header_length;
  if (file_start.size() < report.data_start) {
    return reject(report, ReferenceError::InvalidHeaderLength, "the header was not read in full");
  }
  const auto header = file_start.subspan(kLengthPrefixSize, extent.header_length);

  // Step 4: UTF-8.
  if (auto bad = find_invalid_utf8(header)) {
    return reject(report, ReferenceError::InvalidHeader, invalid_utf8_message(*bad));
  }

  // Step 5: JSON of the expected shape; repeated names and keys resolved as the reference's maps do.
  const bool header_padded = padded || file_start.size() - report.data_start >= json_padding();
  HeaderJsonResult json = parse_header_json(header, header_padded);
  if (json.outcome == JsonOutcome::OutOfMemory) {
    report.outcome = Outcome::OutOfMemory;
    return report;
  }
  if (json.outcome == JsonOutcome::Rejected) {
    return reject(report, ReferenceError::InvalidHeaderDeserialization, json_message(json.reason));
  }
  const DuplicateCounts duplicates = resolve_duplicates(json.header);
  add_header_findings(json.header, duplicates, report.findings);
  add_spacing_findings({json.leading_space, json.trailing_space}, report.header_length, report.findings);
  report.tensors = std::move(json.header.tensors);
  report.has_metadata = json.header.has_metadata;
  report.metadata = std::move(json.header.metadata);
  report.embedded_hashes = embedded_hashes(report.metadata);
  add_metadata_findings(report.tensors, report.metadata, report.findings);

  // Step 6: sorted by offsets, the tensors tile the data section, each as long as its shape says.
  const LayoutResult layout = check_layout(report.tensors);
  if (layout.error != ReferenceError::None) {
    const TensorEntry& t = report.tensors[layout.failed];
    return reject(report, layout.error, layout_message(layout, t), &t.name);
  }
  add_layout_findings(report.tensors, report.data_start, report.findings);

  // Step 7: the data section ends exactly at the end of the file (checked arithmetic).
  std::uint64_t expected = 0;
  if (__builtin_add_overflow(layout.data_end, report.data_start, &expected)) {
    return reject(report, ReferenceError::MetadataIncompleteBuffer, size_message(std::nullopt, file_size));
  }
  if (expected != file_size) {
    return reject(report, ReferenceError::MetadataIncompleteBuffer, size_message(expected, file_size));
  }
  return report;
}

}  // namespace

Report analyze_header(std::span<const std::uint8_t> file_start, std::uint64_t file_size, bool padded) {
  Report report = check_file(file_start, file_size, padded);
  if (report.outcome == Outcome::Verdict && report.error != ReferenceError::None) {
    if (auto foreign = detect_foreign_format(file_start, file_size)) {
      report.findings.insert(report.findings.begin(),
                             Finding{FindingCode::NotSafetensors, std::move(foreign->message), {}, foreign->format});
    }
  }
  return report;
}

}  // namespace safetensors
