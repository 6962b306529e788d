// Findings on where the header and the tensors sit in the file: legal layouts
// that cost readers something (zero-copy loading, 32-bit sizes, wasted reads).
#include <string>

#include "file_findings.h"
#include "message_text.h"
#include "tensor_layout.h"

namespace safetensors {
namespace {

// A count with its noun and verb: "1 tensor is", "3 tensors are".
std::string tensors_verb(std::uint64_t n, const char* one, const char* many) {
  return group_digits(n) + (n == 1 ? " tensor " : " tensors ") + (n == 1 ? one : many);
}

// Bytes one element occupies, or 0 for sub-byte kinds (which have no alignment).
std::uint64_t element_bytes(Dtype d) {
  const std::uint32_t bits = dtype_bits(d);
  return bits % 8 == 0 ? bits / 8 : 0;
}

}  // namespace

void add_spacing_findings(const Report& report, HeaderSpacing spacing, std::vector<Finding>& out) {
  if (spacing.leading != 0) {
    out.push_back(make_finding(
        "LeadingWhitespace", Severity::Info,
        "the header's JSON starts after " + count_bytes(spacing.leading) +
            " of whitespace; the reference loader accepts this, but readers that expect '{' at byte 8 "
            "will not. Re-saving with a standard writer removes it"));
  }
  if (spacing.trailing > kOversizedPadding) {
    out.push_back(make_finding(
        "OversizedHeader", Severity::Info,
        "the header is " + count_bytes(report.header_length) + " long, of which " +
            count_bytes(spacing.trailing) +
            " are padding after the JSON (the reference writer adds at most 7 to align the data); "
            "legal, and some tools reserve room this way to edit metadata in place, but every reader "
            "has to read it"));
  }
}

void add_layout_findings(const Report& report, std::vector<Finding>& out) {
  std::uint64_t misaligned = 0, huge = 0, empty = 0, scalars = 0, data_bytes = 0;
  const TensorEntry* first_misaligned = nullptr;
  const TensorEntry* largest = nullptr;
  const TensorEntry* first_empty = nullptr;
  for (const TensorEntry& t : report.tensors) {
    const std::uint64_t bytes = t.end - t.begin;
    data_bytes += bytes;
    if (t.shape.empty()) ++scalars;
    std::uint64_t elements = 0;
    if (element_count(t.shape, elements) && elements == 0 && empty++ == 0) first_empty = &t;
    if (bytes > kHugeTensorBytes) {
      ++huge;
      if (largest == nullptr || bytes > largest->end - largest->begin) largest = &t;
    }
    const std::uint64_t align = element_bytes(t.dtype);
    // data_start + begin cannot overflow: the layout checks bound begin by the data's end.
    if (bytes != 0 && align > 1 && (report.data_start + t.begin) % align != 0 && misaligned++ == 0) {
      first_misaligned = &t;
    }
  }
  if (data_bytes != 0 && report.data_start % 8 != 0) {
    out.push_back(make_finding(
        "HeaderNotPadded", Severity::Info,
        "the tensor data starts at byte " + group_digits(report.data_start) +
            ", not a multiple of 8: the header is not padded with spaces as the reference writer "
            "pads it. Legal, but loaders that use tensors in place (memory-mapped, zero-copy) need "
            "aligned data and must copy instead; re-saving with a current writer fixes it"));
  }
  if (misaligned != 0) {
    const TensorEntry& t = *first_misaligned;
    out.push_back(make_finding(
        "MisalignedTensor", Severity::Info,
        tensors_verb(misaligned, "starts", "start") + " at a file offset that is not a multiple of the element size "
            "(first: " + quote_name(t.name) + ", " + std::string(dtype_name(t.dtype)) + " at byte " +
            group_digits(report.data_start + t.begin) + "). Legal, but zero-copy loaders must copy "
            "them; MLX and older writers produce such files",
        &t.name));
  }
  if (huge != 0) {
    out.push_back(make_finding(
        "HugeTensor", Severity::Info,
        tensors_verb(huge, "is", "are") + " larger than 2 GiB (largest: " + quote_name(largest->name) + ", " +
            count_bytes(largest->end - largest->begin) + "). Runtimes with 32-bit sizes or buffer "
            "limits (some GPU APIs, older browsers) cannot hold them whole; read them in parts "
            "(getTensor's rows option)",
        &largest->name));
  }
  if (empty != 0) {
    out.push_back(make_finding(
        "EmptyTensor", Severity::Info,
        tensors_verb(empty, "has", "have") + " zero elements (first: " + quote_name(first_empty->name) + ", shape " +
            format_shape(first_empty->shape) + "); legal and they hold no data, but check that the "
            "exporter did not drop their values",
        &first_empty->name));
  }
  if (scalars >= kManyScalars) {
    out.push_back(make_finding(
        "ManyScalarTensors", Severity::Info,
        group_digits(scalars) + " of " + group_digits(report.tensors.size()) +
            " tensors are scalars (shape []); each costs a header entry of about 70 bytes for a few bytes of "
            "data, and loaders pay per tensor. Normal for some formats (LoRA alphas, step counters); "
            "otherwise consider packing them into one tensor"));
  }
}

}  // namespace safetensors
