// The reference checks in order (steps 1-7 of REFERENCE-RULES.md), each failure
// turned into a finding a person can act on.
#include <algorithm>
#include <unordered_map>

#include "file_findings.h"
#include "header_findings.h"
#include "header_json.h"
#include "header_prefix.h"
#include "message_text.h"
#include "report.h"
#include "tensor_layout.h"
#include "utf8.h"

namespace safetensors {
namespace {

void reject(Report& report, ReferenceError error, std::string message, const std::string* tensor = nullptr) {
  report.error = error;
  report.findings.insert(report.findings.begin(), make_finding(std::string(reference_error_name(error)),
                                                               Severity::Error, std::move(message), tensor));
}

std::string prefix_message(ReferenceError error, std::uint64_t n, std::uint64_t file_size) {
  switch (error) {
    case ReferenceError::HeaderTooSmall:
      return "the file is only " + count_bytes(file_size) +
             " long, shorter than the 8-byte header length that starts every safetensors file; "
             "it is empty or cut off";
    case ReferenceError::HeaderTooLarge:
      return "the first 8 bytes give a header length of " + count_bytes(n) +
             ", above the reference loader's limit of 100,000,000; this is not a safetensors file, "
             "or its first bytes are damaged";
    default:
      return "the first 8 bytes give a header length of " + count_bytes(n) + ", but only " +
             count_bytes(file_size - kLengthPrefixSize) +
             " follow them; the file is truncated or is not a safetensors file";
  }
}

std::string layout_message(const LayoutResult& r, const TensorEntry& t) {
  const std::string name = "tensor " + quote_name(t.name);
  const std::string offsets = "[" + std::to_string(t.begin) + ", " + std::to_string(t.end) + "]";
  const std::string what = std::string(dtype_name(t.dtype)) + ", shape " + format_shape(t.shape);
  switch (r.error) {
    case ReferenceError::InvalidOffset:
      if (t.begin == r.expected_begin) {
        return name + " has data_offsets " + offsets + " that end before they begin";
      }
      return name + " has data_offsets " + offsets + " but must start at byte " +
             std::to_string(r.expected_begin) + (r.expected_begin == 0 ? " (the start of the data)" :
             " (where the previous tensor ends)") +
             ": tensors must tile the data section from byte 0 with no gaps or overlaps";
    case ReferenceError::ValidationOverflow:
      return name + " (" + what + ") has " +
             (r.bits_overflowed ? "a size in bits" : "an element count") +
             " too large for 64 bits; the header is corrupt or hostile";
    case ReferenceError::MisalignedSlice:
      return name + " (" + what + ") has " + group_digits(r.elements) + " elements of " +
             std::to_string(dtype_bits(t.dtype)) + " bits, not a whole number of bytes";
    default: {
      const std::uint64_t need = r.elements * dtype_bits(t.dtype) / 8;
      return name + " (" + what + ") needs " + count_bytes(need) + ", but its data_offsets " + offsets +
             " span " + count_bytes(t.end - t.begin);
    }
  }
}

std::string size_message(std::uint64_t expected, std::uint64_t file_size) {
  if (file_size > expected) {
    const std::uint64_t extra = file_size - expected;
    return "file is longer than its tensors: " + group_digits(extra) + (extra == 1 ? " extra byte" : " extra bytes") +
           " after the last tensor; it may be truncated or appended to";
  }
  return "file is shorter than its tensors: " + count_bytes(expected - file_size) +
         " missing at the end; it is truncated (an interrupted download or copy?)";
}

// True when some tensor name appears twice. An open-addressing table of (hash, index)
// in one flat allocation: no node per name, unlike a hash map, and O(n), unlike a sort.
bool has_duplicate_names(const std::vector<TensorEntry>& tensors) {
  std::size_t capacity = 16;
  while (capacity < 2 * tensors.size()) capacity *= 2;
  struct Slot {
    std::size_t hash = 0;
    std::size_t index_plus_one = 0;  // 0: empty
  };
  std::vector<Slot> slots(capacity);
  const std::size_t mask = capacity - 1;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const std::size_t h = std::hash<std::string_view>{}(tensors[i].name);
    for (std::size_t at = h & mask;; at = (at + 1) & mask) {
      Slot& slot = slots[at];
      if (slot.index_plus_one == 0) {
        slot = {h, i + 1};
        break;
      }
      if (slot.hash == h && tensors[slot.index_plus_one - 1].name == tensors[i].name) return true;
    }
  }
  return false;
}

// The reference builds a HashMap: for a repeated tensor name the last entry wins.
DuplicateCounts resolve_duplicates(ParsedHeader& parsed) {
  DuplicateCounts counts;
  if (has_duplicate_names(parsed.tensors)) {
    const std::size_t n = parsed.tensors.size();
    std::vector<bool> keep(n);
    {
      // Keys view the names: finish with them before any entry is moved.
      std::unordered_map<std::string_view, std::pair<std::size_t, std::uint32_t>> last_and_count;
      for (std::size_t i = 0; i < n; ++i) {
        auto& [last, count] = last_and_count[parsed.tensors[i].name];
        last = i;
        if (++count == 2) counts.tensor_names.push_back(parsed.tensors[i].name);
      }
      for (const auto& name : counts.tensor_names) counts.tensor_name_repeats.push_back(last_and_count[name].second);
      for (std::size_t i = 0; i < n; ++i) keep[i] = last_and_count[parsed.tensors[i].name].first == i;
    }
    std::vector<TensorEntry> kept;
    std::vector<EntryQuirks> kept_quirks;
    for (std::size_t i = 0; i < n; ++i) {
      if (!keep[i]) continue;
      kept.push_back(std::move(parsed.tensors[i]));
      kept_quirks.push_back(parsed.quirks[i]);
    }
    parsed.tensors = std::move(kept);
    parsed.quirks = std::move(kept_quirks);
  }
  // Metadata: a HashMap too; keep first-seen order with the last value.
  std::unordered_map<std::string, std::size_t> position;
  std::vector<std::pair<std::string, std::string>> merged;
  std::vector<bool> repeated;
  for (auto& [key, value] : parsed.metadata) {
    auto [it, inserted] = position.emplace(key, merged.size());
    if (inserted) {
      merged.emplace_back(std::move(key), std::move(value));
      repeated.push_back(false);
      continue;
    }
    if (!repeated[it->second]) counts.metadata_keys.push_back(it->first);
    repeated[it->second] = true;
    merged[it->second].second = std::move(value);
  }
  parsed.metadata = std::move(merged);
  return counts;
}

}  // namespace

Report analyze_header(std::span<const std::uint8_t> file_start, std::uint64_t file_size, bool padded) {
  Report report;
  report.file_size = file_size;
  const HeaderExtent extent = read_header_extent(file_start, file_size);
  report.header_length = extent.header_length;
  if (extent.error != ReferenceError::None) {
    reject(report, extent.error, prefix_message(extent.error, extent.header_length, file_size));
    return report;
  }
  report.data_start = kLengthPrefixSize + extent.header_length;
  if (file_start.size() < report.data_start) {
    reject(report, ReferenceError::InvalidHeaderLength, "the header was not read in full");
    return report;
  }
  const auto header = file_start.subspan(kLengthPrefixSize, extent.header_length);
  const bool header_padded = padded || file_start.size() - report.data_start >= json_padding();

  if (auto bad = find_invalid_utf8(header)) {
    reject(report, ReferenceError::InvalidHeader,
           "the header is not valid UTF-8 (first bad byte at offset " + group_digits(*bad) +
               " of the header); the file is damaged or is not a safetensors file");
    return report;
  }
  HeaderJsonResult json = parse_header_json(header, header_padded);
  if (json.out_of_memory) {
    report.out_of_memory = true;
    return report;
  }
  if (!json.ok) {
    reject(report, ReferenceError::InvalidHeaderDeserialization,
           "the header is not valid safetensors JSON: " + json.reason);
    return report;
  }
  report.header_parsed = true;
  const DuplicateCounts duplicates = resolve_duplicates(json.header);
  add_header_findings(json.header, duplicates, report.findings);

  report.tensors = std::move(json.header.tensors);
  report.has_metadata = json.header.has_metadata;
  report.metadata = std::move(json.header.metadata);
  add_spacing_findings(report, {json.leading_space, json.trailing_space}, report.findings);
  add_metadata_findings(report, report.findings);

  const LayoutResult layout = check_layout(report.tensors);
  if (layout.error != ReferenceError::None) {
    const TensorEntry& t = report.tensors[layout.failed];
    reject(report, layout.error, layout_message(layout, t), &t.name);
    return report;
  }
  add_layout_findings(report, report.findings);
  std::uint64_t expected = 0;
  if (__builtin_add_overflow(layout.data_end, report.data_start, &expected)) {
    reject(report, ReferenceError::MetadataIncompleteBuffer,
           "the tensors claim more data than any file can hold (offsets near 2^64); the header is corrupt");
  } else if (expected != file_size) {
    reject(report, ReferenceError::MetadataIncompleteBuffer, size_message(expected, file_size));
  }
  return report;
}

}  // namespace safetensors
