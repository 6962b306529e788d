// The wasm pickle module's scan in rounds (cpp/wasm/pickle_scan_session.h), driven as
// web/pickle/scan_pickle.js drives it: the report it ends with is the direct read's, and a
// deflated record is asked of the caller, not skipped.
#include <gtest/gtest.h>

#include <cstring>

#include "checkpoint_source.h"
#include "scan/scan_json.h"
#include "wasm/pickle_scan_session.h"

namespace safetensors::testing {
namespace {

struct Driven {
  std::string json;       ///< the last round's
  int rounds = 0;         ///< rounds run
  int inflate_asked = 0;  ///< records the session asked to inflate
};

// Runs rounds until one is a report; every record to inflate fails (no zlib here).
Driven drive(const std::string& file, const std::string& name, bool contents = false) {
  PickleScanSession session(file.size(), name);
  session.want_contents(contents);
  Driven out;
  while (out.rounds < 50) {
    out.json = session.round();
    ++out.rounds;
    if (out.json.rfind("{\"misses\":", 0) != 0) break;
    // The misses, read from the file as JS would: "[[offset,length],...]" parsed by hand.
    const std::string list = out.json.substr(10, out.json.find("],\"inflate\"") - 9);
    for (std::size_t at = 0; (at = list.find('[', at + 1)) != std::string::npos;) {
      const std::uint64_t offset = std::stoull(list.substr(at + 1));
      const std::uint64_t length = std::stoull(list.substr(list.find(',', at) + 1));
      const std::uint64_t n = std::min<std::uint64_t>(length, file.size() - offset);
      std::memcpy(reinterpret_cast<void*>(session.reserve(n)), file.data() + offset, n);
      session.add(offset);
    }
    for (; session.inflate_input() != nullptr; ++out.inflate_asked) {
      EXPECT_GT(session.inflate_size(), 0u);
      session.inflated(false);
    }
  }
  return out;
}

class ScanSession : public ::testing::TestWithParam<std::string> {};

TEST_P(ScanSession, EndsWithTheDirectReadsReport) {
  const std::string file = file_bytes(checkpoints_dir() / GetParam());
  ASSERT_FALSE(file.empty());
  scan::ReadOptions options;
  options.locate_storages = false;
  options.file_name = GetParam();
  MemorySource source(file);
  std::string direct;
  scan::write_scan_json(scan::read_checkpoint(source, options).report, GetParam(), direct);
  const Driven driven = drive(file, GetParam());
  EXPECT_LT(driven.rounds, 20);
  EXPECT_EQ(driven.inflate_asked, 0);
  EXPECT_EQ(driven.json, direct);
}

INSTANTIATE_TEST_SUITE_P(Checkpoints, ScanSession,
                         ::testing::Values("views.pt", "legacy.pt", "os_system.pt", "data_p0.pkl", "arrays.npz",
                                           "views_zip64.pt", "views_prefix.pt", "lightning.ckpt"),
                         [](const auto& info) { return param_name(info.param); });

TEST(ScanSession, AsksTheCallerToInflateADeflatedPickle) {
  const std::string file = file_bytes(checkpoints_dir() / "views_deflated.pt");
  ASSERT_FALSE(file.empty());
  const Driven driven = drive(file, "views_deflated.pt");
  EXPECT_GE(driven.inflate_asked, 1);
  // Not inflated: the report says so rather than passing the file as safe.
  EXPECT_NE(driven.json.find("\"verdict\":\"unknown\""), std::string::npos) << driven.json;
}

TEST(ScanSession, WithContentsGivesTheDirectReadsTensorsAndStorageOffsets) {
  for (const std::string name : {"views.pt", "legacy.pt", "tied.pt"}) {
    const std::string file = file_bytes(checkpoints_dir() / name);
    ASSERT_FALSE(file.empty()) << name;
    scan::ReadOptions options;
    options.file_name = name;
    MemorySource source(file);
    const scan::Checkpoint checkpoint = scan::read_checkpoint(source, options);
    ASSERT_FALSE(checkpoint.contents.tensors.empty()) << name;
    ASSERT_FALSE(checkpoint.storages.empty()) << name;
    std::string direct;
    scan::write_checkpoint_json(checkpoint, name, direct);
    const Driven driven = drive(file, name, true);
    EXPECT_EQ(driven.json, direct) << name;
    // Each tensor's storage and its offset in the file are in the JSON.
    const scan::StorageLocation& first = checkpoint.storages.front();
    const std::string storage = "{\"key\":\"" + first.key + "\",\"offset\":" + std::to_string(first.offset) + ",";
    EXPECT_NE(driven.json.find(storage), std::string::npos) << driven.json;
    const std::string tensor = "{\"name\":\"" + checkpoint.contents.tensors.front().name + "\",\"storage\":";
    EXPECT_NE(driven.json.find(tensor), std::string::npos) << driven.json;
  }
}

TEST(ScanSession, WithContentsListsThePlainValues) {
  const std::string file = file_bytes(checkpoints_dir() / "lightning.ckpt");
  ASSERT_FALSE(file.empty());
  const std::string json = drive(file, "lightning.ckpt", true).json;
  // make_checkpoints.py's Lightning-style checkpoint: epoch 3, global_step 120.
  EXPECT_NE(json.find("{\"name\":\"epoch\",\"value\":3}"), std::string::npos) << json;
  EXPECT_NE(json.find("{\"name\":\"global_step\",\"value\":120}"), std::string::npos) << json;
  EXPECT_NE(json.find("\"objectsLeftOut\":0"), std::string::npos) << json;
}

}  // namespace
}  // namespace safetensors::testing
