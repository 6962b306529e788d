// Local headers against the central directory (zip_record.h). Layout: APPNOTE.TXT 4.3.7; with
// flag bit 3 the local CRC and sizes are zero and a data descriptor follows the data (4.3.9),
// so only the name and method are compared then.
#include "container/zip_record.h"

#include <string_view>

namespace safetensors::container {

namespace {
constexpr std::uint32_t kLocalSignature = 0x04034b50;
}

std::uint64_t local_header_length(std::span<const std::uint8_t> fixed) {
  if (fixed.size() < kLocalHeaderSize) return kLocalHeaderSize;
  return kLocalHeaderSize + read_le(fixed, 26, 2) + read_le(fixed, 28, 2);
}

ZipRecord read_zip_record(std::span<const std::uint8_t> header, const ZipEntry& entry, std::uint64_t file_size) {
  ZipRecord out;
  if (header.size() < kLocalHeaderSize || read_le(header, 0, 4) != kLocalSignature ||
      header.size() < local_header_length(header)) {
    out.findings.push_back({ContainerIssue::BadLocalHeader, entry.header_offset});
    return out;
  }
  const std::size_t name_len = read_le(header, 26, 2);
  const std::string_view name(reinterpret_cast<const char*>(header.data() + kLocalHeaderSize), name_len);
  bool agrees = name == entry.name && read_le(header, 8, 2) == entry.method;
  if ((entry.flags & 0x8) == 0) {
    const std::uint64_t crc = read_le(header, 14, 4), csize = read_le(header, 18, 4), size = read_le(header, 22, 4);
    // ZIP64 records put 0xFFFFFFFF here and the sizes in the local extra field.
    if (csize != 0xFFFFFFFFu || size != 0xFFFFFFFFu)
      agrees = agrees && crc == entry.crc32 && csize == entry.compressed_size && size == entry.size;
  }
  if (!agrees) out.findings.push_back({ContainerIssue::LocalHeaderDisagrees, entry.header_offset});
  out.data_offset = entry.header_offset + local_header_length(header);
  out.data_size = entry.compressed_size;
  if (out.data_offset > file_size || out.data_size > file_size - out.data_offset) {
    out.findings.push_back({ContainerIssue::EntryOutOfRange, entry.header_offset});
    return out;
  }
  out.stored = entry.method == 0;
  if (entry.method == 8) out.findings.push_back({ContainerIssue::NeedsInflate, entry.header_offset});
  if (entry.method != 0 && entry.method != 8)
    out.findings.push_back({ContainerIssue::UnsupportedCompression, entry.header_offset});
  out.ok = true;
  return out;
}

}  // namespace safetensors::container
