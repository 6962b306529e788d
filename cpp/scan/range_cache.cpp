// The range cache and one round of read_checkpoint over it (range_cache.h).
#include "scan/range_cache.h"

#include <algorithm>
#include <cstring>

namespace safetensors::scan {

void RangeCache::add(std::uint64_t offset, std::vector<std::uint8_t> bytes) {
  if (!bytes.empty()) ranges_.emplace_back(offset, std::move(bytes));
}

std::uint64_t RangeCache::held() const {
  std::uint64_t total = 0;
  for (const auto& r : ranges_) total += r.second.size();
  return total;
}

bool RangeCache::read(std::uint64_t offset, std::span<std::uint8_t> out) const {
  if (offset > size_ || out.size() > size_ - offset) return false;
  for (const auto& [start, bytes] : ranges_) {
    if (offset >= start && offset - start <= bytes.size() && out.size() <= bytes.size() - (offset - start)) {
      if (!out.empty()) std::memcpy(out.data(), bytes.data() + (offset - start), out.size());
      return true;
    }
  }
  misses_.push_back({offset, out.size()});
  return false;
}

std::vector<ByteRange> RangeCache::take_misses() {
  std::sort(misses_.begin(), misses_.end(), [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
  std::vector<ByteRange> merged;
  for (const ByteRange& m : misses_) {
    if (!merged.empty() && m.offset <= merged.back().offset + merged.back().length) {
      const std::uint64_t end = std::max(merged.back().offset + merged.back().length, m.offset + m.length);
      merged.back().length = end - merged.back().offset;
    } else {
      merged.push_back(m);
    }
  }
  misses_.clear();
  return merged;
}

RangeRun read_checkpoint_round(RangeCache& cache, const ReadOptions& options) {
  RangeRun run;
  run.checkpoint = read_checkpoint(cache, options);
  run.misses = cache.take_misses();
  run.complete = run.misses.empty();
  return run;
}

}  // namespace safetensors::scan
