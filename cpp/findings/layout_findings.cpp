// Findings on where the header and the tensors sit in the file: legal layouts
// that cost readers something (zero-copy loading, 32-bit sizes, wasted reads).
#include "findings/layout_findings.h"

#include <string>

#include "findings/message_text.h"
#include "format/tensor_layout.h"

namespace safetensors {

void add_layout_findings(std::span<const TensorEntry> tensors, std::uint64_t data_start, std::vector<Finding>& out) {
  std::uint64_t misaligned = 0, huge = 0, empty = 0, scalars = 0, data_bytes = 0;
  const TensorEntry* first_misaligned = nullptr;
  const TensorEntry* largest = nullptr;
  const TensorEntry* first_empty = nullptr;
  for (const TensorEntry& t : tensors) {
    const std::uint64_t bytes = t.end - t.begin;
    data_bytes += bytes;
    if (t.shape.empty()) ++scalars;
    std::uint64_t elements = 0;
    if (element_count(t.shape, elements) && elements == 0 && empty++ == 0) first_empty = &t;
    if (bytes > kHugeTensorBytes) {
      ++huge;
      if (largest == nullptr || bytes > largest->end - largest->begin) largest = &t;
    }
    const std::uint64_t align = dtype_element_bytes(t.dtype);
    // data_start + begin cannot overflow: the layout checks bound begin by the data's end.
    if (bytes != 0 && align > 1 && (data_start + t.begin) % align != 0 && misaligned++ == 0) {
      first_misaligned = &t;
    }
  }
  if (data_bytes != 0 && data_start % 8 != 0) {
    out.push_back({FindingCode::HeaderNotPadded,
                   "the tensor data starts at byte " + group_digits(data_start) +
                       ", not a multiple of 8: the header is not padded with spaces as the reference writer "
                       "pads it. Legal, but loaders that use tensors in place (memory-mapped, zero-copy) need "
                       "aligned data and must copy instead; re-saving with a current writer fixes it"});
  }
  if (misaligned != 0) {
    const TensorEntry& t = *first_misaligned;
    out.push_back({FindingCode::MisalignedTensor,
                   tensors_verb(misaligned, "starts", "start") +
                       " at a file offset that is not a multiple of the element size "
                       "(first: " +
                       quote_name(t.name) + ", " + std::string(dtype_name(t.dtype)) + " at byte " +
                       group_digits(data_start + t.begin) +
                       "). Legal, but zero-copy loaders must copy "
                       "them; MLX and older writers produce such files",
                   t.name});
  }
  if (huge != 0) {
    out.push_back({FindingCode::HugeTensor,
                   tensors_verb(huge, "is", "are") + " larger than 2 GiB (largest: " + quote_name(largest->name) +
                       ", " + count_bytes(largest->end - largest->begin) +
                       "). Runtimes with 32-bit sizes or buffer "
                       "limits (some GPU APIs, older browsers) cannot hold them whole; read them in parts "
                       "(getTensor's rows option)",
                   largest->name});
  }
  if (empty != 0) {
    out.push_back({FindingCode::EmptyTensor,
                   tensors_verb(empty, "has", "have") + " zero elements (first: " + quote_name(first_empty->name) +
                       ", shape " + format_shape(first_empty->shape) +
                       "); legal and they hold no data, but check that the "
                       "exporter did not drop their values",
                   first_empty->name});
  }
  if (scalars >= kManyScalars) {
    out.push_back(
        {FindingCode::ManyScalarTensors,
         group_digits(scalars) + " of " + group_digits(tensors.size()) +
             " tensors are scalars (shape []); each costs a header entry of about 70 bytes for a few bytes of "
             "data, and loaders pay per tensor. Normal for some formats (LoRA alphas, step counters); "
             "otherwise consider packing them into one tensor"});
  }
}

}  // namespace safetensors
