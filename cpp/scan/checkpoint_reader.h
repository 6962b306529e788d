// Reads a checkpoint through byte ranges the caller serves (ByteSource): what it is, its scan
// report, its main pickle's tensors and where each storage's bytes are in the file. Only the
// pickles, the zip directory and local headers (and, for the legacy format, each storage's
// 8-byte count) are read, never the storages. A deflated pickle record is read through the
// caller's Inflate, or reported as needs-inflate (the core has no zlib).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pickle/pickle_machine.h"
#include "pickle/torch_records.h"
#include "scan/scan_report.h"

namespace safetensors::scan {

/// @brief Where the bytes come from: a file, a Blob, a URL read by Range.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  /// @brief The file's size in bytes.
  virtual std::uint64_t size() const = 0;
  /// @brief Fills `out` from `offset`; false when the range cannot be read.
  virtual bool read(std::uint64_t offset, std::span<std::uint8_t> out) const = 0;
};

/// @brief Inflates a raw deflate stream (zip method 8) of `size` bytes once inflated.
using Inflate = std::function<std::optional<std::vector<std::uint8_t>>(std::span<const std::uint8_t>, std::uint64_t)>;

/// @brief How to read.
struct ReadOptions {
  pickle::PickleLimits limits;                  ///< per pickle
  Inflate inflate;                              ///< for deflated records (may be empty)
  std::uint64_t max_pickle_bytes = 1ull << 30;  ///< the longest pickle read
  bool locate_storages = true;                  ///< find each storage's bytes (local headers, legacy counts)
  std::string file_name;  ///< the file's name, if known (a pickle named .safetensors is a finding)
};

/// @brief One storage's bytes in the file.
struct StorageLocation {
  std::string key;       ///< torch's storage key
  std::uint64_t offset;  ///< first byte in the file
  std::uint64_t bytes;   ///< length in the file
  bool stored;           ///< false: deflated, so not readable by range
  std::uint64_t size;    ///< length once inflated (= bytes when stored)
  std::uint32_t crc32;   ///< the zip directory's CRC-32 of the inflated bytes (0 in the legacy format)
};

/// @brief What was read.
struct Checkpoint {
  ScanReport report;                      ///< format, verdict, globals, findings
  std::string data_where;                 ///< the main pickle's name, e.g. "archive/data.pkl"
  pickle::PickleResult data;              ///< the main pickle
  pickle::TorchContents contents;         ///< its tensors
  std::vector<StorageLocation> storages;  ///< sorted by key
  /// @brief The torch zip's `byteorder` record ("little", "big"; torch 2.x writes it, see
  /// pytorch/pytorch torch/serialization.py `_save`), empty when absent: then little-endian.
  std::string byteorder;

  /// @brief The location of storage `key`, if found.
  const StorageLocation* storage(std::string_view key) const;
};

/// @brief Reads and scans the file `source` serves.
Checkpoint read_checkpoint(const ByteSource& source, const ReadOptions& options = {});

}  // namespace safetensors::scan
