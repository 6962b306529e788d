// One scan of a checkpoint for JavaScript, which reads asynchronously: the rounds of
// read_checkpoint_round (cpp/scan/range_cache.h) with the deflated records inflated by the
// caller between rounds (the core has no zlib; JS has DecompressionStream). Plain C++: only
// cpp/wasm/bindings.cpp includes Emscripten, so this is tested natively.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "scan/range_cache.h"

namespace safetensors {

/// @brief A scan in rounds: run a round; read the ranges it missed and inflate the records it
/// could not, hand them over; run again until a round completes.
class PickleScanSession {
 public:
  /// @brief A scan of a file of `size` bytes named `file_name` (may be empty).
  PickleScanSession(std::uint64_t size, std::string file_name);

  /// @brief Asks for the contents too: storages located (their local headers read) and the
  /// complete round's JSON written by write_checkpoint_json (tensors, storages).
  void want_contents(bool on) { contents_ = on; }

  /// @brief The address of room for `length` bytes that add() or inflated() then takes.
  std::uintptr_t reserve(std::size_t length);
  /// @brief Adds the bytes written at reserve()'s pointer as the file's bytes at `offset`.
  void add(std::uint64_t offset);

  /// @brief Runs one round, as JSON. Complete: the report (cpp/scan/scan_json.h). Not complete:
  /// {"misses": [[offset, length], ...], "inflate": records waiting}: read, inflate, run again.
  std::string round();

  /// @brief The first record waiting to be inflated (raw deflate), or null when none waits.
  const std::vector<std::uint8_t>* inflate_input() const;
  /// @brief Its size once inflated, as the zip directory says.
  std::uint64_t inflate_size() const;
  /// @brief Ends that record: the bytes written at reserve()'s pointer when `ok`, else a failure
  /// (the scan then reports the record as unreadable).
  void inflated(bool ok);

 private:
  scan::RangeCache cache_;
  std::string file_name_;
  bool contents_ = false;
  std::vector<std::uint8_t> pending_;  // what reserve() gave
  struct Waiting {
    std::vector<std::uint8_t> input;
    std::uint64_t size;
  };
  std::vector<Waiting> waiting_;
  std::map<std::vector<std::uint8_t>, std::optional<std::vector<std::uint8_t>>> inflated_;
};

}  // namespace safetensors
