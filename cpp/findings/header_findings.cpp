// Findings on a readable header: duplicates, the non-standard encodings the
// reference tolerates, and whitespace around the JSON.
#include "findings/header_findings.h"

#include "findings/message_text.h"

namespace safetensors {

void add_header_findings(const ParsedHeader& header, const DuplicateCounts& duplicates, std::vector<Finding>& out) {
  // One finding per code, naming the first case: a hostile header may repeat every name.
  if (!duplicates.tensor_names.empty()) {
    const std::string& name = duplicates.tensor_names[0];
    const std::size_t n = duplicates.tensor_names.size();
    const std::string first =
        quote_name(name) + " appears " + group_digits(duplicates.tensor_name_repeats[0]) + " times";
    out.push_back({FindingCode::DuplicateTensorName,
                   (n == 1 ? "tensor name " + first
                           : group_digits(n) + " tensor names appear more than once (first: " + first + ")") +
                       " in the header; the reference loader keeps the last entry and ignores the others, "
                       "other readers may not. The format forbids duplicate names: re-export the file",
                   name});
  }
  if (!duplicates.metadata_keys.empty()) {
    const std::size_t n = duplicates.metadata_keys.size();
    out.push_back({FindingCode::DuplicateMetadataKey,
                   (n == 1 ? "metadata key " : group_digits(n) + " metadata keys (first: ") +
                       quote_name(duplicates.metadata_keys[0]) + (n == 1 ? " appears" : ") appear") +
                       " more than once in __metadata__; the reference loader keeps the last value, "
                       "other readers may keep the first"});
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
    out.push_back({FindingCode::ArrayTensorEntry,
                   group_digits(arrays) + " tensor entries (first: " + quote_name(*first_array) +
                       ") are written as [dtype, shape, data_offsets] arrays; the reference accepts this, "
                       "most other readers do not. Re-export the file with a standard writer",
                   *first_array});
  }
  if (dtype_maps != 0) {
    out.push_back({FindingCode::MapDtype, group_digits(dtype_maps) +
                                              " tensor entries write their dtype as {\"NAME\": null}; "
                                              "the reference accepts this, most other readers do not"});
  }
  if (unknown != 0) {
    out.push_back({FindingCode::UnknownTensorField,
                   group_digits(unknown) + " tensor entries have fields besides dtype, shape and data_offsets; "
                                           "the reference loader ignores them"});
  }
}

void add_spacing_findings(HeaderSpacing spacing, std::uint64_t header_length, std::vector<Finding>& out) {
  if (spacing.leading != 0) {
    out.push_back({FindingCode::LeadingWhitespace,
                   "the header's JSON starts after " + count_bytes(spacing.leading) +
                       " of whitespace; the reference loader accepts this, but readers that expect '{' at byte 8 "
                       "will not. Re-saving with a standard writer removes it"});
  }
  if (spacing.trailing > kOversizedPadding) {
    out.push_back({FindingCode::OversizedHeader,
                   "the header is " + count_bytes(header_length) + " long, of which " + count_bytes(spacing.trailing) +
                       " are padding after the JSON (the reference writer adds at most 7 to align the data); "
                       "legal, and some tools reserve room this way to edit metadata in place, but every reader "
                       "has to read it"});
  }
}

}  // namespace safetensors
