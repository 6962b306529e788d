// read_checkpoint for callers that read asynchronously (JavaScript's Blob.slice, fetch with
// Range): a ByteSource over the ranges the caller has supplied. A read outside them fails and
// is remembered; the caller reads every range missed, adds them, and runs read_checkpoint again,
// until a run misses nothing. Each round only re-parses what was read (the pickles, the
// directory); storages are never asked for unless their local headers are to be located.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "scan/checkpoint_reader.h"

namespace safetensors::scan {

/// @brief One range of the file: [offset, offset + length).
struct ByteRange {
  std::uint64_t offset;  ///< first byte
  std::uint64_t length;  ///< bytes
};

/// @brief The ranges the caller supplied, and those a run asked for in vain.
class RangeCache : public ByteSource {
 public:
  /// @brief A cache for a file of `size` bytes, holding nothing yet.
  explicit RangeCache(std::uint64_t size) : size_(size) {}
  /// @brief Adds the bytes at `offset`.
  void add(std::uint64_t offset, std::vector<std::uint8_t> bytes);
  /// @brief The ranges missed since the last call, merged where they overlap; clears them.
  std::vector<ByteRange> take_misses();
  /// @brief Bytes held in all.
  std::uint64_t held() const;

  std::uint64_t size() const override { return size_; }
  bool read(std::uint64_t offset, std::span<std::uint8_t> out) const override;

 private:
  std::uint64_t size_;
  std::vector<std::pair<std::uint64_t, std::vector<std::uint8_t>>> ranges_;
  mutable std::vector<ByteRange> misses_;
};

/// @brief Runs read_checkpoint over `cache`; `complete` is false when it missed ranges (then
/// `misses` lists them: read them, add them, call again).
struct RangeRun {
  Checkpoint checkpoint;          ///< valid when `complete`
  bool complete = false;          ///< no range was missed
  std::vector<ByteRange> misses;  ///< what to read next
};

/// @brief One round.
RangeRun read_checkpoint_round(RangeCache& cache, const ReadOptions& options = {});

}  // namespace safetensors::scan
