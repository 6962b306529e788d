// The steps of read_checkpoint shared by its two source files (checkpoint_reader.cpp: format,
// pickles, legacy and NumPy; checkpoint_zip.cpp: zip archives). Private to cpp/scan.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scan/checkpoint_reader.h"

namespace safetensors::scan::detail {

/// @brief One read in progress.
struct Reading {
  const ByteSource& source;    ///< the bytes
  const ReadOptions& options;  ///< how
  Checkpoint& out;             ///< the result

  /// @brief `n` bytes at `offset`, fewer at the end of the file, empty when unreadable.
  std::vector<std::uint8_t> bytes(std::uint64_t offset, std::uint64_t n) const;
  /// @brief Runs the pickle at `offset`, reading more of the file until it completes.
  pickle::PickleResult pickle_at(std::uint64_t offset) const;
  /// @brief Runs the pickles of `bytes` one after another (trailing ones: data after STOP);
  /// the first becomes the main pickle when `main` is set.
  void pickles_in(const std::vector<std::uint8_t>& bytes, const std::string& where, bool main);
  /// @brief Reads the file as a zip; false when it has no end record.
  bool read_zip();
};

}  // namespace safetensors::scan::detail
