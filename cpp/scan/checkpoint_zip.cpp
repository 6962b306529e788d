// read_checkpoint's zip archives: the end record and central directory (the truth), every
// record that holds a pickle (torch's data.pkl; by name .pkl/.pickle/.joblib/.dat/.data, an
// object .npy, or a pickle's PROTO bytes, as picklescan picks them), and torch's storage records
// located by their local headers. Bytes in front of the archive are scanned as a pickle too:
// torch.load tells a zip by its first bytes, so it would unpickle them.
#include <algorithm>
#include <array>

#include "container/npy_header.h"
#include "container/torch_archive.h"
#include "container/zip_record.h"
#include "scan/checkpoint_steps.h"

namespace safetensors::scan::detail {

using container::ContainerFinding;
using container::ContainerIssue;

namespace {

bool pickle_name(const std::string& name) {
  static constexpr std::array<std::string_view, 5> kExtensions{".pkl", ".pickle", ".joblib", ".dat", ".data"};
  for (std::string_view ext : kExtensions)
    if (name.size() >= ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0) return true;
  return false;
}

}  // namespace

bool Reading::read_zip() {
  const std::uint64_t size = source.size();
  // The end records without a comment first (torch writes none), then the longest tail.
  std::uint64_t tail_len = std::min<std::uint64_t>(size, 22 + 20 + 56);
  auto end = container::read_zip_end(bytes(size - tail_len, tail_len), size);
  if (!end.ok && tail_len < std::min(size, container::kZipTailBytes)) {
    tail_len = std::min(size, container::kZipTailBytes);
    end = container::read_zip_end(bytes(size - tail_len, tail_len), size);
  }
  if (!end.ok) return false;
  for (const auto& f : end.findings) out.report.add(f, "");
  const auto directory = container::read_zip_directory(bytes(end.directory_offset, end.directory_size), end, size);
  for (const auto& f : directory.findings) out.report.add(f, "");
  const auto archive = container::read_torch_archive(directory);
  out.report.format = archive.data_pickle ? FileFormat::PytorchZip : FileFormat::Zip;
  if (end.prefix > 0) pickles_in(bytes(0, std::min(end.prefix, options.max_pickle_bytes)), "archive prefix", false);
  const std::string storage_folder = archive.folder + "data/";
  for (std::size_t i = 0; i < directory.entries.size(); ++i) {
    const container::ZipEntry& e = directory.entries[i];
    const bool is_storage = archive.data_pickle && e.name.starts_with(storage_folder);
    if (is_storage && !options.locate_storages) continue;
    const auto fixed = bytes(e.header_offset, container::kLocalHeaderSize);
    const auto record =
        container::read_zip_record(bytes(e.header_offset, container::local_header_length(fixed)), e, size);
    for (const auto& f : record.findings)
      if (f.issue != ContainerIssue::NeedsInflate) out.report.add(f, e.name);
    if (!record.ok) continue;
    if (is_storage) {
      out.storages.push_back(
          {e.name.substr(storage_folder.size()), record.data_offset, record.data_size, record.stored, e.size, e.crc32});
      continue;
    }
    // torch 2.x's `byteorder`: the storages' element order (torch.load byte-swaps "big" ones).
    if (archive.data_pickle && options.locate_storages && e.name == archive.folder + "byteorder") {
      auto text = bytes(record.data_offset, std::min<std::uint64_t>(record.data_size, 64));
      if (!record.stored) {  // re-zipped with deflate: inflated as a pickle record is
        auto inflated = options.inflate && e.size <= 64 ? options.inflate(text, e.size) : std::nullopt;
        text = inflated ? std::move(*inflated) : std::vector<std::uint8_t>{'?'};
      }
      out.byteorder.assign(text.begin(), text.end());
      continue;
    }
    // The record's bytes, inflated where needed (only records that may hold a pickle).
    const bool main = archive.data_pickle == i;
    auto head = bytes(record.data_offset, std::min<std::uint64_t>(record.data_size, 16));
    const bool proto = head.size() >= 2 && head[0] == 0x80 && head[1] <= 5;
    if (!main && !pickle_name(e.name) && !proto && !e.name.ends_with(".npy")) continue;
    if (record.data_size > options.max_pickle_bytes || e.size > options.max_pickle_bytes) {
      out.report.add(ScanIssue::RecordTooLarge, e.name);
      continue;
    }
    if (record.stored && e.name.ends_with(".npy") && !main) {  // a numeric array: its header says so
      const auto header = container::read_npy_header(bytes(record.data_offset, container::kNpyMaxHeader));
      if (!header || !header->object) continue;
    }
    auto data = bytes(record.data_offset, record.data_size);
    if (!record.stored) {
      auto inflated = options.inflate ? options.inflate(data, e.size) : std::nullopt;
      if (!inflated) {
        out.report.add(ContainerFinding{ContainerIssue::NeedsInflate, e.header_offset}, e.name);
        continue;
      }
      data = std::move(*inflated);
    }
    if (e.name.ends_with(".npy") && !main) {
      const auto header = container::read_npy_header(data);
      if (!header || !header->object) continue;
      data.erase(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(header->data_offset));
    } else if (!main && !pickle_name(e.name) && !proto) {
      continue;
    }
    pickles_in(data, e.name, main);
  }
  std::sort(out.storages.begin(), out.storages.end(), [](const auto& a, const auto& b) { return a.key < b.key; });
  if (archive.data_pickle)
    for (const auto& t : out.contents.tensors)
      if (!out.storage(t.storage_key) && options.locate_storages)
        out.report.add(ContainerFinding{ContainerIssue::MissingStorage, 0}, t.name);
  return true;
}

}  // namespace safetensors::scan::detail
