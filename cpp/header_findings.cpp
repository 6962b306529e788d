// Findings on a readable header: duplicates and the non-standard encodings the
// reference tolerates.
#include "header_findings.h"

#include "message_text.h"

namespace safetensors {
namespace {

void add(std::vector<Finding>& out, const char* code, Severity severity, std::string message,
         const std::string* tensor = nullptr) {
  out.push_back(make_finding(code, severity, std::move(message), tensor));
}

}  // namespace

void add_header_findings(const ParsedHeader& header, const DuplicateCounts& duplicates,
                         std::vector<Finding>& out) {
  // One finding per code, naming the first case: a hostile header may repeat every name.
  if (!duplicates.tensor_names.empty()) {
    const std::string& name = duplicates.tensor_names[0];
    const std::size_t n = duplicates.tensor_names.size();
    const std::string first = quote_name(name) + " appears " + std::to_string(duplicates.tensor_name_repeats[0]) + " times";
    add(out, "DuplicateTensorName", Severity::Warning,
        (n == 1 ? "tensor name " + first : group_digits(n) + " tensor names appear more than once (first: " + first + ")") +
            " in the header; the reference loader keeps the last entry and ignores the others, "
            "other readers may not. The format forbids duplicate names: re-export the file",
        &name);
  }
  if (!duplicates.metadata_keys.empty()) {
    const std::size_t n = duplicates.metadata_keys.size();
    add(out, "DuplicateMetadataKey", Severity::Warning,
        (n == 1 ? "metadata key " : group_digits(n) + " metadata keys (first: ") + quote_name(duplicates.metadata_keys[0]) +
            (n == 1 ? " appears" : ") appear") +
            " more than once in __metadata__; the reference loader keeps the last value, "
            "other readers may keep the first");
  }
  std::uint32_t arrays = 0, dtype_maps = 0, unknown = 0;
  const std::string* first_array = nullptr;
  for (std::size_t i = 0; i < header.tensors.size(); ++i) {
    const EntryQuirks& q = header.quirks[i];
    if (q.written_as_array && arrays++ == 0) first_array = &header.tensors[i].name;
    if (q.dtype_as_map) ++dtype_maps;
    if (q.unknown_fields != 0) ++unknown;
  }
  if (arrays != 0) {
    add(out, "ArrayTensorEntry", Severity::Warning,
        std::to_string(arrays) + " tensor entries (first: " + quote_name(*first_array) +
            ") are written as [dtype, shape, data_offsets] arrays; the reference accepts this, "
            "most other readers do not. Re-export the file with a standard writer",
        first_array);
  }
  if (dtype_maps != 0) {
    add(out, "MapDtype", Severity::Warning,
        std::to_string(dtype_maps) + " tensor entries write their dtype as {\"NAME\": null}; "
            "the reference accepts this, most other readers do not");
  }
  if (unknown != 0) {
    add(out, "UnknownTensorField", Severity::Info,
        std::to_string(unknown) + " tensor entries have fields besides dtype, shape and data_offsets; "
            "the reference loader ignores them");
  }
}

}  // namespace safetensors
