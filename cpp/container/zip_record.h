// A zip record's local header, checked against its central directory entry (the truth): where
// the record's bytes start, and a finding when the local header says otherwise (another name,
// method or size), the evasion a scanner that trusts local headers falls for.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "container/zip_directory.h"

namespace safetensors::container {

/// @brief Bytes the caller reads at entry.header_offset for read_zip_record: the fixed header,
/// then the name and extra field (whose lengths it gives).
inline constexpr std::uint64_t kLocalHeaderSize = 30;

/// @brief Where a record's bytes are.
struct ZipRecord {
  bool ok = false;                         ///< false: `findings` says why
  std::uint64_t data_offset = 0;           ///< first byte of the (compressed) data in the file
  std::uint64_t data_size = 0;             ///< compressed bytes, from the directory
  bool stored = false;                     ///< method 0: the bytes are the record itself
  std::vector<ContainerFinding> findings;  ///< disagreements, needs-inflate, out of range
};

/// @brief The local header's full length (fixed part, name, extra), from its first 30 bytes.
std::uint64_t local_header_length(std::span<const std::uint8_t> fixed);

/// @brief Checks the local header and locates the data.
/// @param header the local_header_length() bytes at entry.header_offset.
ZipRecord read_zip_record(std::span<const std::uint8_t> header, const ZipEntry& entry, std::uint64_t file_size);

}  // namespace safetensors::container
