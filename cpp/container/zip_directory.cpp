// Zip end records and the central directory (zip_directory.h). Layouts: PKWARE's APPNOTE.TXT,
// sections 4.3.12 (central directory header), 4.3.14-4.3.16 (ZIP64 end record, locator, end
// record) and 4.5.3 (the ZIP64 extended information extra field).
#include "container/zip_directory.h"

namespace safetensors::container {
namespace {

constexpr std::uint32_t kEndSignature = 0x06054b50;
constexpr std::uint32_t kZip64LocatorSignature = 0x07064b50;
constexpr std::uint32_t kZip64EndSignature = 0x06064b50;
constexpr std::uint32_t kDirectorySignature = 0x02014b50;
constexpr std::size_t kEndSize = 22;
constexpr std::size_t kLocatorSize = 20;
constexpr std::size_t kZip64EndSize = 56;
constexpr std::size_t kDirectoryEntrySize = 46;

ZipEnd end_failure(ContainerIssue issue, std::uint64_t offset) {
  ZipEnd end;
  end.findings.push_back({issue, offset});
  return end;
}

// Applies the ZIP64 extra field (id 1) to the fields that hold their 0xFFFFFFFF marker.
bool apply_zip64_extra(std::span<const std::uint8_t> extra, ZipEntry& e, bool big_size, bool big_csize,
                       bool big_offset) {
  for (std::size_t at = 0; at + 4 <= extra.size();) {
    const auto id = read_le(extra, at, 2);
    const auto len = read_le(extra, at + 2, 2);
    if (at + 4 + len > extra.size()) return false;
    if (id == 1) {
      std::size_t field = at + 4;
      const std::size_t stop = at + 4 + len;
      for (auto [wanted, target] :
           {std::pair{big_size, &e.size}, {big_csize, &e.compressed_size}, {big_offset, &e.header_offset}}) {
        if (!wanted) continue;
        if (field + 8 > stop) return false;
        *target = read_le(extra, field, 8);
        field += 8;
      }
      return true;
    }
    at += 4 + len;
  }
  return !(big_size || big_csize || big_offset);
}

}  // namespace

std::uint64_t read_le(std::span<const std::uint8_t> bytes, std::size_t at, int width) {
  std::uint64_t v = 0;
  for (int i = width - 1; i >= 0; --i) v = (v << 8) | bytes[at + static_cast<std::size_t>(i)];
  return v;
}

ZipEnd read_zip_end(std::span<const std::uint8_t> tail, std::uint64_t file_size) {
  if (tail.size() < kEndSize || tail.size() > file_size) return end_failure(ContainerIssue::NoEndRecord, file_size);
  const std::uint64_t tail_start = file_size - tail.size();
  std::size_t pos = tail.size() - kEndSize + 1;
  bool found = false;
  while (pos-- > 0) {
    if (read_le(tail, pos, 4) == kEndSignature && pos + kEndSize + read_le(tail, pos + 20, 2) <= tail.size()) {
      found = true;
      break;
    }
  }
  if (!found) return end_failure(ContainerIssue::NoEndRecord, file_size);
  ZipEnd end;
  end.entries = read_le(tail, pos + 10, 2);
  end.directory_size = read_le(tail, pos + 12, 4);
  std::uint64_t declared_offset = read_le(tail, pos + 16, 4);
  std::uint64_t directory_end = tail_start + pos;
  if (pos >= kLocatorSize + kZip64EndSize && read_le(tail, pos - kLocatorSize, 4) == kZip64LocatorSignature) {
    const std::size_t record = pos - kLocatorSize - kZip64EndSize;
    if (read_le(tail, record, 4) != kZip64EndSignature)
      return end_failure(ContainerIssue::BadEndRecord, tail_start + record);
    end.zip64 = true;
    end.entries = read_le(tail, record + 32, 8);
    end.directory_size = read_le(tail, record + 40, 8);
    declared_offset = read_le(tail, record + 48, 8);
    directory_end = tail_start + record;
  }
  if (end.directory_size > directory_end || declared_offset > directory_end - end.directory_size)
    return end_failure(ContainerIssue::BadEndRecord, tail_start + pos);
  end.directory_offset = directory_end - end.directory_size;
  end.prefix = end.directory_offset - declared_offset;
  if (end.prefix > 0) end.findings.push_back({ContainerIssue::ArchivePrefix, 0});
  end.ok = true;
  return end;
}

ZipDirectory read_zip_directory(std::span<const std::uint8_t> directory, const ZipEnd& end, std::uint64_t file_size) {
  ZipDirectory out;
  std::size_t at = 0;
  auto fail = [&](ContainerIssue issue) {
    out.findings.push_back({issue, end.directory_offset + at});
    return out;
  };
  while (at < directory.size()) {
    if (directory.size() - at < kDirectoryEntrySize || read_le(directory, at, 4) != kDirectorySignature)
      return fail(ContainerIssue::BadDirectoryEntry);
    const std::size_t name_len = read_le(directory, at + 28, 2);
    const std::size_t extra_len = read_le(directory, at + 30, 2);
    const std::size_t comment_len = read_le(directory, at + 32, 2);
    const std::size_t total = kDirectoryEntrySize + name_len + extra_len + comment_len;
    if (directory.size() - at < total) return fail(ContainerIssue::BadDirectoryEntry);
    ZipEntry e;
    e.flags = static_cast<std::uint16_t>(read_le(directory, at + 8, 2));
    e.method = static_cast<std::uint16_t>(read_le(directory, at + 10, 2));
    e.crc32 = static_cast<std::uint32_t>(read_le(directory, at + 16, 4));
    e.compressed_size = read_le(directory, at + 20, 4);
    e.size = read_le(directory, at + 24, 4);
    e.header_offset = read_le(directory, at + 42, 4);
    e.name.assign(reinterpret_cast<const char*>(directory.data() + at + kDirectoryEntrySize), name_len);
    const bool big_size = e.size == 0xFFFFFFFFu, big_csize = e.compressed_size == 0xFFFFFFFFu;
    const bool big_offset = e.header_offset == 0xFFFFFFFFu;
    if (!apply_zip64_extra(directory.subspan(at + kDirectoryEntrySize + name_len, extra_len), e, big_size, big_csize,
                           big_offset))
      return fail(ContainerIssue::BadDirectoryEntry);
    if (e.header_offset > end.directory_offset - end.prefix) return fail(ContainerIssue::EntryOutOfRange);
    e.header_offset += end.prefix;
    if (e.compressed_size > file_size || e.header_offset + 30 > file_size) return fail(ContainerIssue::EntryOutOfRange);
    out.entries.push_back(std::move(e));
    at += total;
  }
  out.ok = true;
  return out;
}

}  // namespace safetensors::container
