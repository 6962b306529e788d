// Writer and reader of the JS header table (see header_table.h for the sequence).
#include "wasm/header_table.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "format/dtype.h"
#include "wasm/table_reader.h"

namespace safetensors {
namespace {

constexpr std::uint64_t kMaxSafeInteger = (std::uint64_t{1} << 53) - 1;

void write_optional(TableWriter& w, const std::optional<std::string>& s) {
  w.number(s ? 1 : 0);
  if (s) w.string(*s);
}

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

void write_findings(TableWriter& w, std::span<const Finding> findings) {
  w.number(static_cast<double>(findings.size()));
  for (const Finding& f : findings) {
    w.number(static_cast<double>(f.code));
    w.string(f.message);
    write_optional(w, f.tensor);
    w.number(f.format ? static_cast<double>(*f.format) + 1 : 0);
  }
}

void encode_header_table(const Report& report, std::vector<std::uint8_t>& out) {
  TableWriter w;
  w.number(static_cast<double>(report.error));
  if (report.error != ReferenceError::None) {
    w.string(report.error_message);
    write_optional(w, report.error_tensor);
  }
  w.number(static_cast<double>(report.file_size));
  w.number(static_cast<double>(report.header_length));
  w.number(static_cast<double>(report.data_start));
  write_findings(w, report.findings);
  if (!report.has_metadata) {
    w.number(-1);
  } else {
    w.number(static_cast<double>(report.metadata.size()));
    for (const auto& [key, value] : report.metadata) {
      w.string(key);
      w.string(value);
    }
  }
  w.number(static_cast<double>(report.embedded_hashes.size()));
  for (const EmbeddedHash& h : report.embedded_hashes) {
    w.string(h.key);
    w.string(h.value);
    w.string(hash_cover_name(h.covers));
  }
  w.number(static_cast<double>(report.tensors.size()));
  for (const TensorEntry& t : report.tensors) write_tensor(w, t);
  w.finish(out);
}

namespace {

constexpr double kMaxExact = 9007199254740991.0;     // 2^53 - 1: the largest exact whole number
constexpr double kTwoTo64 = 18446744073709551616.0;  // what a dim of 2^64-1 is written as

bool skip_strings(TableReader& r, std::uint64_t n) {
  std::string_view ignored;
  for (std::uint64_t i = 0; i < n; ++i) {
    if (!r.string(ignored)) return false;
  }
  return true;
}

bool read_optional(TableReader& r) {
  std::uint64_t has = 0;
  return r.count(1, has) && skip_strings(r, has);
}

// A data_offsets bound usable as a byte position: a whole number from 0 to 2^53-1.
bool usable_offset(double v) { return v >= 0 && v <= kMaxExact && std::trunc(v) == v; }

// The bytes `t`'s dtype and shape say it holds (at most 2^53-1): its size when its
// data_offsets cannot be trusted.
std::uint64_t shape_bytes(const TensorView& t) {
  double elements = 1;
  for (std::uint64_t d : t.shape) elements *= static_cast<double>(d);
  const double bytes = std::ceil(elements * dtype_bits(t.dtype) / 8);
  return bytes < kMaxExact ? static_cast<std::uint64_t>(bytes) : static_cast<std::uint64_t>(kMaxExact);
}

// One tensor; its dims go to `dims` (`t.shape` points at them once all are read). Offsets that
// are no byte range (end before begin, past 2^53, not whole: a rejected file's) leave `t.begin`
// and `t.end` at 0 and set `bad_offsets`.
bool read_tensor(TableReader& r, TensorView& t, std::vector<std::uint64_t>& dims, std::uint64_t& rank,
                 bool& bad_offsets) {
  std::uint64_t dtype = 0, exact = 0;
  double begin = 0, end = 0;
  if (!r.string(t.name) || !r.count(kDtypeCount - 1, dtype) || !r.count(static_cast<double>(r.left()), rank))
    return false;
  t.dtype = static_cast<Dtype>(dtype);
  const std::size_t first = dims.size();
  bool inexact = false;  // a dim past 2^53 (up to 2^64-1, written as 2^64) comes again below, exactly
  for (std::uint64_t i = 0; i < rank; ++i) {
    double d = 0;
    if (!r.number(d) || !(d >= 0 && d <= kTwoTo64) || std::trunc(d) != d) return false;
    inexact |= d > kMaxExact;
    dims.push_back(d < kTwoTo64 ? static_cast<std::uint64_t>(d) : ~std::uint64_t{0});
  }
  if (!r.number(begin) || !r.number(end) || !r.count(1, exact) || (inexact && !exact)) return false;
  bad_offsets = !usable_offset(begin) || !usable_offset(end) || end < begin;
  if (!bad_offsets) {
    t.begin = static_cast<std::uint64_t>(begin);
    t.end = static_cast<std::uint64_t>(end);
  }
  for (std::uint64_t i = 0; exact && i < rank; ++i) {
    std::string_view digits;
    if (!r.string(digits)) return false;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), dims[first + i]);
    if (ec != std::errc() || end != digits.data() + digits.size()) return false;
  }
  return true;
}

}  // namespace

bool decode_header_table(std::span<const std::uint8_t> table, TableHeader& out) {
  TableReader r;
  std::uint64_t error = 0, findings = 0, metadata = 0, hashes = 0, tensors = 0, code = 0, size = 0;
  double metadata_count = 0;
  // Any file's table whose header was read: a file cut short keeps its whole header's tensors.
  if (!r.open(table) || !r.count(kMaxExact, error)) return false;
  if (error != 0 && (!skip_strings(r, 1) || !read_optional(r))) return false;  // message, [tensor]
  for (int i = 0; i < 3; ++i) {                                                // file size, header length, data start
    if (!r.count(kMaxExact, size)) return false;
  }
  if (!r.count(kMaxExact, findings)) return false;
  for (std::uint64_t i = 0; i < findings; ++i) {
    std::uint64_t format = 0;
    if (!r.count(kMaxExact, code) || !skip_strings(r, 1) || !read_optional(r) || !r.count(kForeignFormatCount, format))
      return false;
  }
  if (!r.number(metadata_count)) return false;
  out.has_metadata = metadata_count != -1;
  if (out.has_metadata) {
    if (!(metadata_count >= 0 && metadata_count <= kMaxExact) || std::trunc(metadata_count) != metadata_count)
      return false;
    metadata = static_cast<std::uint64_t>(metadata_count);
  }
  out.metadata.clear();
  for (std::uint64_t i = 0; i < metadata; ++i) {
    std::string_view key, value;
    if (!r.string(key) || !r.string(value)) return false;
    out.metadata.emplace_back(key, value);
  }
  if (!r.count(kMaxExact, hashes)) return false;
  for (std::uint64_t i = 0; i < hashes; ++i) {
    if (!skip_strings(r, 3)) return false;  // key, value, cover
  }
  if (!r.count(kMaxExact, tensors)) return false;
  out.tensors.clear();
  out.dims.clear();
  out.tensors.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(tensors, r.left() / 7)));  // 7+ numbers each
  out.dims.reserve(r.left());  // at most one dim per number left
  std::vector<std::uint64_t> ranks;
  ranks.reserve(out.tensors.capacity());
  std::vector<bool> bad;  // per tensor: its offsets are no byte range
  bad.reserve(out.tensors.capacity());
  for (std::uint64_t i = 0; i < tensors; ++i) {
    bool bad_offsets = false;
    if (!read_tensor(r, out.tensors.emplace_back(), out.dims, ranks.emplace_back(), bad_offsets)) return false;
    bad.push_back(bad_offsets);
  }
  // InvalidOffset: the reference stopped at the first tensor out of place, so no tensor's
  // offsets were checked to tile the data; every size then comes from dtype and shape.
  const bool all_from_shapes = error == static_cast<std::uint64_t>(ReferenceError::InvalidOffset);
  out.sized_from_shapes = 0;
  std::size_t first = 0;  // every dim is in place: point the shapes at them
  for (std::size_t i = 0; i < out.tensors.size(); ++i) {
    TensorView& t = out.tensors[i];
    t.shape = std::span<const std::uint64_t>(out.dims.data() + first, static_cast<std::size_t>(ranks[i]));
    first += static_cast<std::size_t>(ranks[i]);
    if (all_from_shapes || bad[i]) {
      t.begin = 0;
      t.end = shape_bytes(t);
      ++out.sized_from_shapes;
    }
  }
  return r.done();
}

}  // namespace safetensors
