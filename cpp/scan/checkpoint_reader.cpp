// read_checkpoint: tells the format from the first bytes (NumPy, legacy torch, zip by its end
// record, else a pickle) and reads it (checkpoint_reader.h). Zips: checkpoint_zip.cpp.
#include "scan/checkpoint_reader.h"

#include <algorithm>
#include <utility>

#include "container/legacy_torch.h"
#include "container/npy_header.h"
#include "scan/checkpoint_steps.h"

namespace safetensors::scan {

using container::ContainerFinding;
using container::ContainerIssue;

const StorageLocation* Checkpoint::storage(std::string_view key) const {
  auto it = std::lower_bound(storages.begin(), storages.end(), key,
                             [](const StorageLocation& s, std::string_view k) { return s.key < k; });
  return it != storages.end() && it->key == key ? &*it : nullptr;
}

namespace detail {

std::vector<std::uint8_t> Reading::bytes(std::uint64_t offset, std::uint64_t n) const {
  const std::uint64_t size = source.size();
  if (offset >= size) return {};
  std::vector<std::uint8_t> buf(static_cast<std::size_t>(std::min(n, size - offset)));
  if (buf.empty() || !source.read(offset, buf)) return {};
  return buf;
}

pickle::PickleResult Reading::pickle_at(std::uint64_t offset) const {
  std::uint64_t want = 1u << 20;
  for (;;) {
    const auto buf = bytes(offset, want);
    pickle::PickleResult r = pickle::run_pickle(buf, options.limits);
    const bool cut = !r.complete && r.has(pickle::PickleIssue::Truncated) && buf.size() == want;
    if (!cut || want >= options.max_pickle_bytes) return r;
    want = std::min(want * 4, options.max_pickle_bytes);
  }
}

void Reading::pickles_in(const std::vector<std::uint8_t>& bytes, const std::string& where, bool main) {
  pickle::PickleResult first = pickle::run_pickle(bytes, options.limits);
  out.report.add_pickle(first, where);
  std::uint64_t at = first.end;
  if (main) {
    out.contents = pickle::read_torch_tensors(first);
    out.data = std::move(first);
    out.data_where = where;
  }
  if (at < bytes.size() && (!main || out.data.complete))
    out.report.add(pickle::pickle_issue_info(pickle::PickleIssue::DataAfterStop).name,
                   pickle::pickle_issue_info(pickle::PickleIssue::DataAfterStop).message, where, at);
  // Later pickles, as a loader reading on would meet them: their globals count too.
  for (int n = 0; n < 64 && at < bytes.size(); ++n) {
    const pickle::PickleResult next = pickle::run_pickle(std::span(bytes).subspan(at), options.limits);
    pickle::PickleResult globals_only = next;  // its globals in context, not its findings
    globals_only.findings.clear();
    for (pickle::GlobalRef& g : globals_only.globals) g.offset += at;
    out.report.add_pickle(globals_only, where);
    if (!next.complete || next.end == 0) break;
    at += next.end;
  }
}

namespace {

void read_legacy(Reading& r) {
  const std::string names[5] = {"magic number", "protocol version", "sys_info", "data", "storage keys"};
  std::uint64_t at = 0;
  std::vector<pickle::PickleResult> pickles;
  for (int i = 0; i < 5; ++i) {
    pickles.push_back(r.pickle_at(at));
    r.out.report.add_pickle(pickles.back(), names[i]);
    if (!pickles.back().complete) return;
    at += pickles.back().end;
  }
  const auto& magic = pickles[0].at(pickles[0].root);
  if (magic.kind == pickle::Kind::Call)
    r.out.report.add(ContainerFinding{ContainerIssue::LegacyMagicByCall, 0}, names[0]);
  const auto& version = pickles[1].at(pickles[1].root);
  if (version.kind != pickle::Kind::Int || version.integer != container::kLegacyProtocolVersion)
    r.out.report.add(ContainerFinding{ContainerIssue::BadLegacyProtocol, 0}, names[1]);
  r.out.contents = pickle::read_torch_tensors(pickles[3]);
  r.out.data = std::move(pickles[3]);
  r.out.data_where = names[3];
  if (!r.options.locate_storages) return;
  // Storages follow in the order of the key list, each an int64 count then its elements. An
  // UntypedStorage's (torch 2.x's float8, uint16, ...) elements are its bytes: _legacy_save
  // writes it with _element_size(torch.uint8) (pytorch/pytorch torch/serialization.py at 31d1cf19).
  const auto& keys = pickles[4].at(pickles[4].root);
  if (keys.kind != pickle::Kind::List) return;
  for (pickle::ValueId k : keys.items) {
    const pickle::Value& key = pickles[4].at(k);
    std::uint64_t element = 0;
    for (const auto& t : r.out.contents.tensors)
      if (t.storage_key == key.text) element = t.numel_in_bytes ? 1 : pickle::torch_dtype_info(t.dtype).element_size;
    const auto count = r.bytes(at, 8);
    const auto s = container::read_legacy_storage(count, at, element, r.source.size());
    if (!s.ok) return r.out.report.add(ContainerFinding{ContainerIssue::EntryOutOfRange, at}, "");
    r.out.storages.push_back({key.text, s.data_offset, s.next - s.data_offset, true, s.next - s.data_offset, 0});
    at = s.next;
  }
  std::sort(r.out.storages.begin(), r.out.storages.end(), [](const auto& a, const auto& b) { return a.key < b.key; });
}

// A file whose first bytes are not the magic number's pickle but whose second pickle is the
// legacy protocol version: torch.load reads it as a legacy checkpoint all the same.
bool second_pickle_is_legacy_version(Reading& r) {
  const pickle::PickleResult first = r.pickle_at(0);
  if (!first.complete) return false;
  const pickle::PickleResult second = r.pickle_at(first.end);
  if (!second.complete) return false;
  const pickle::Value& v = second.at(second.root);
  return v.kind == pickle::Kind::Int && v.integer == container::kLegacyProtocolVersion;
}

void read_npy(Reading& r, const std::vector<std::uint8_t>& head) {
  auto header = container::read_npy_header(head);
  if (!header) return r.out.report.add(ContainerFinding{ContainerIssue::BadNpyHeader, 0}, "");
  if (!header->object) return;
  r.pickles_in(r.bytes(header->data_offset, r.options.max_pickle_bytes), "object array", true);
}

// Each tensor's last element against its storage's length (both in bytes).
void check_extents(Checkpoint& out) {
  for (const pickle::TensorRecord& t : out.contents.tensors) {
    const StorageLocation* s = out.storage(t.storage_key);
    if (s == nullptr || !s->stored) continue;
    std::uint64_t last = t.storage_offset;
    bool empty = false, overflow = false;
    for (std::size_t d = 0; d < t.size.size(); ++d) {
      if (t.size[d] <= 0) empty = true;
      if (t.size[d] <= 0 || t.stride[d] <= 0) continue;
      std::uint64_t step = 0;
      overflow |= __builtin_mul_overflow(static_cast<std::uint64_t>(t.size[d] - 1),
                                         static_cast<std::uint64_t>(t.stride[d]), &step);
      overflow |= __builtin_add_overflow(last, step, &last);
    }
    const std::uint64_t element = pickle::torch_dtype_info(t.dtype).element_size;
    if (!empty && (overflow || last >= s->bytes / element))
      out.report.add(ContainerFinding{ContainerIssue::StorageTooSmall, 0}, t.name);
  }
}

}  // namespace
}  // namespace detail

Checkpoint read_checkpoint(const ByteSource& source, const ReadOptions& options) {
  Checkpoint out;
  detail::Reading r{source, options, out};
  const auto head = r.bytes(0, 64);
  if (container::is_npy(head)) {
    out.report.format = FileFormat::Npy;
    detail::read_npy(r, r.bytes(0, container::kNpyMaxHeader));
  } else if (container::is_legacy_torch(head)) {
    out.report.format = FileFormat::PytorchLegacy;
    detail::read_legacy(r);
  } else if (!head.empty() && !r.read_zip()) {
    if (detail::second_pickle_is_legacy_version(r)) {
      out.report.format = FileFormat::PytorchLegacy;
      detail::read_legacy(r);
    } else if (const pickle::PickleResult first = r.pickle_at(0); first.complete || !first.globals.empty()) {
      out.report.format = FileFormat::Pickle;
      r.pickles_in(r.bytes(0, first.end + (1u << 20)), "pickle", true);
    }
  }
  detail::check_extents(out);
  // A checkpoint under the name of the format that cannot run code: someone renamed it.
  if (out.report.format != FileFormat::NotPickle && options.file_name.ends_with(".safetensors"))
    out.report.add(ScanIssue::PickleNamedSafetensors, "");
  out.report.decide();
  return out;
}

}  // namespace safetensors::scan
