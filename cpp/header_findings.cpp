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
  for (std::size_t i = 0; i < duplicates.tensor_names.size(); ++i) {
    const std::string& name = duplicates.tensor_names[i];
    add(out, "DuplicateTensorName", Severity::Warning,
        "tensor name " + quote_name(name) + " appears " + std::to_string(duplicates.tensor_name_repeats[i]) +
            " times in the header; the reference loader keeps the last entry and ignores the others, "
            "other readers may not. The format forbids duplicate names: re-export the file",
        &name);
  }
  for (const std::string& key : duplicates.metadata_keys) {
    add(out, "DuplicateMetadataKey", Severity::Warning,
        "metadata key " + quote_name(key) +
            " appears more than once in __metadata__; the reference loader keeps the last value, "
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
