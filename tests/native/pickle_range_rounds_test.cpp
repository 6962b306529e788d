// read_checkpoint in rounds over a RangeCache, as JavaScript will drive it: each round's missed
// ranges are read from the file and added, until a round misses nothing. The result must equal
// a direct read, in a few rounds, holding only the ranges asked for.
#include <gtest/gtest.h>

#include "checkpoint_source.h"
#include "scan/range_cache.h"

namespace safetensors::testing {
namespace {

struct Rounds {
  scan::Checkpoint checkpoint;  ///< the last round's
  int rounds = 0;               ///< rounds run
  std::uint64_t held = 0;       ///< bytes the cache held at the end
};

Rounds read_in_rounds(const std::string& file, const scan::ReadOptions& options) {
  scan::RangeCache cache(file.size());
  Rounds out;
  for (;;) {
    scan::RangeRun run = scan::read_checkpoint_round(cache, options);
    ++out.rounds;
    if (run.complete || out.rounds > 50) {
      out.checkpoint = std::move(run.checkpoint);
      break;
    }
    for (const scan::ByteRange& r : run.misses) {
      const std::uint64_t n = std::min<std::uint64_t>(r.length, file.size() - r.offset);
      cache.add(r.offset, std::vector<std::uint8_t>(file.begin() + static_cast<std::ptrdiff_t>(r.offset),
                                                    file.begin() + static_cast<std::ptrdiff_t>(r.offset + n)));
    }
  }
  out.held = cache.held();
  return out;
}

class RangeRounds : public ::testing::TestWithParam<std::string> {};

TEST_P(RangeRounds, SameResultAsADirectRead) {
  const std::string file = file_bytes(checkpoints_dir() / GetParam());
  ASSERT_FALSE(file.empty());
  for (bool locate : {false, true}) {
    scan::ReadOptions options;
    options.locate_storages = locate;
    MemorySource source(file);
    const scan::Checkpoint direct = scan::read_checkpoint(source, options);
    const Rounds rounds = read_in_rounds(file, options);
    EXPECT_LE(rounds.rounds, 12) << GetParam();
    RecordProperty(locate ? "rounds_located" : "rounds_scan", rounds.rounds);
    const scan::Checkpoint& c = rounds.checkpoint;
    EXPECT_EQ(c.report.format, direct.report.format);
    EXPECT_EQ(c.report.verdict, direct.report.verdict);
    EXPECT_EQ(c.report.globals.size(), direct.report.globals.size());
    EXPECT_EQ(c.report.findings.size(), direct.report.findings.size());
    ASSERT_EQ(c.contents.tensors.size(), direct.contents.tensors.size());
    for (std::size_t i = 0; i < c.contents.tensors.size(); ++i) {
      EXPECT_EQ(c.contents.tensors[i].name, direct.contents.tensors[i].name);
      EXPECT_EQ(c.contents.tensors[i].storage_key, direct.contents.tensors[i].storage_key);
    }
    ASSERT_EQ(c.storages.size(), direct.storages.size());
    for (std::size_t i = 0; i < c.storages.size(); ++i) EXPECT_EQ(c.storages[i].offset, direct.storages[i].offset);
  }
}

INSTANTIATE_TEST_SUITE_P(Committed, RangeRounds,
                         ::testing::Values("lightning.ckpt", "legacy.pt", "os_system_p2.pkl", "objects.npy",
                                           "views_prefix.pt", "views_zip64.pt"),
                         [](const auto& info) { return param_name(info.param); });

}  // namespace
}  // namespace safetensors::testing
