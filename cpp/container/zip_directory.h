// A zip archive's central directory, read from byte ranges the caller supplies (the core never
// holds the whole file): first the tail (read_zip_end), then the directory (read_zip_directory).
// The directory is the truth, as in Python's zipfile and torch's miniz reader; ZIP64 end
// records and extra fields (APPNOTE.TXT 4.3.14-4.3.16, 4.5.3) and any archive prefix (offsets
// shifted by bytes in front, as zipfile's "concat") are handled.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "container/container_issues.h"

namespace safetensors::container {

/// @brief How many bytes at the end of the file read_zip_end wants: the end record with the
/// longest comment, the ZIP64 locator and the ZIP64 end record.
inline constexpr std::uint64_t kZipTailBytes = 22 + 65535 + 20 + 56;

/// @brief Where the central directory is.
struct ZipEnd {
  bool ok = false;                         ///< false: `findings` says why
  std::uint64_t directory_offset = 0;      ///< in the file (prefix included)
  std::uint64_t directory_size = 0;        ///< bytes
  std::uint64_t entries = 0;               ///< as the end record counts them
  std::uint64_t prefix = 0;                ///< bytes in front of the archive
  bool zip64 = false;                      ///< a ZIP64 end record was used
  std::vector<ContainerFinding> findings;  ///< problems met
};

/// @brief Reads the end record from the last bytes of the file.
/// @param tail the last min(file_size, kZipTailBytes) bytes.
ZipEnd read_zip_end(std::span<const std::uint8_t> tail, std::uint64_t file_size);

/// @brief One record as the central directory lists it.
struct ZipEntry {
  std::string name;                   ///< as stored
  std::uint16_t method = 0;           ///< 0 stored, 8 deflate
  std::uint16_t flags = 0;            ///< bit 3: sizes in a data descriptor
  std::uint32_t crc32 = 0;            ///< of the uncompressed bytes
  std::uint64_t compressed_size = 0;  ///< bytes in the file
  std::uint64_t size = 0;             ///< bytes once inflated
  std::uint64_t header_offset = 0;    ///< of the local header, in the file (prefix included)
};

/// @brief The directory.
struct ZipDirectory {
  bool ok = false;                         ///< false: `findings` says why
  std::vector<ZipEntry> entries;           ///< in directory order
  std::vector<ContainerFinding> findings;  ///< problems met
};

/// @brief Reads the central directory.
/// @param directory the end.directory_size bytes at end.directory_offset.
ZipDirectory read_zip_directory(std::span<const std::uint8_t> directory, const ZipEnd& end, std::uint64_t file_size);

/// @brief Little-endian unsigned of `width` bytes at `at` (the caller checks the bounds).
std::uint64_t read_le(std::span<const std::uint8_t> bytes, std::size_t at, int width);

}  // namespace safetensors::container
