// read_checkpoint on checkpoints torch.save wrote (tests/checkpoints/make_checkpoints.py), against
// what torch itself said about each tensor after loading the file (expected.json): format,
// verdict, names, dtype, shape, stride, storage offset, Parameter or not, and for small float32
// tensors the values read from the file's bytes through the storage location and strides.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <set>

#include "checkpoint_source.h"
#include "simdjson.h"

namespace safetensors::testing {
namespace {

using scan::Checkpoint;

simdjson::dom::element expected_json() {
  static simdjson::dom::parser parser;
  static std::string text = file_bytes(checkpoints_dir() / "expected.json");
  simdjson::dom::element root;
  EXPECT_EQ(parser.parse(text).get(root), simdjson::SUCCESS);
  return root;
}

// simdjson without exceptions: a field's value, or a failed test and a default.
template <typename T>
T get(simdjson::simdjson_result<simdjson::dom::element> e) {
  T out{};
  EXPECT_EQ(e.get(out), simdjson::SUCCESS);
  return out;
}

template <typename T>
T get(simdjson::dom::element e) {
  T out{};
  EXPECT_EQ(e.get(out), simdjson::SUCCESS);
  return out;
}

std::vector<std::int64_t> ints(simdjson::simdjson_result<simdjson::dom::element> e) {
  std::vector<std::int64_t> out;
  for (simdjson::dom::element v : get<simdjson::dom::array>(e)) out.push_back(get<std::int64_t>(v));
  return out;
}

// The value of element `index` (row-major over the shape) read from the file's bytes.
float value_at(const std::string& file, const scan::StorageLocation& s, const pickle::TensorRecord& t,
               std::size_t index) {
  std::uint64_t element = t.storage_offset;
  for (std::size_t d = t.size.size(); d-- > 0;) {
    const auto dim = static_cast<std::size_t>(t.size[d]);
    element += (index % dim) * static_cast<std::uint64_t>(t.stride[d]);
    index /= dim;
  }
  float v;
  std::memcpy(&v, file.data() + s.offset + element * 4, 4);
  return v;
}

class CommittedCheckpoint : public ::testing::TestWithParam<std::string> {};

TEST_P(CommittedCheckpoint, TensorsAreWhatTorchSays) {
  const std::string name = GetParam();
  simdjson::dom::element facts = get<simdjson::dom::element>(expected_json()[name]);
  const std::string file = file_bytes(checkpoints_dir() / name);
  ASSERT_FALSE(file.empty()) << name;
  MemorySource source(file);
  const Checkpoint ckpt = scan::read_checkpoint(source);
  EXPECT_EQ(scan::format_name(ckpt.report.format), get<std::string_view>(facts["format"]));
  EXPECT_EQ(ckpt.report.verdict, scan::Verdict::Safe) << name;
  for (const auto& f : ckpt.report.findings) ADD_FAILURE() << name << ": " << f.code << " at " << f.where;
  for (const auto& g : ckpt.report.globals) EXPECT_EQ(g.safety, scan::Safety::Safe) << g.module << "." << g.name;

  std::map<std::string, const pickle::TensorRecord*> ours;
  for (const auto& t : ckpt.contents.tensors) ours[t.name] = &t;
  auto tensors = get<simdjson::dom::object>(facts["tensors"]);
  EXPECT_EQ(ours.size(), tensors.size()) << name;
  for (auto [key, fact] : tensors) {
    const std::string tensor_name(key);
    ASSERT_TRUE(ours.contains(tensor_name)) << name << ": " << tensor_name;
    const pickle::TensorRecord& t = *ours[tensor_name];
    EXPECT_EQ(pickle::torch_dtype_info(t.dtype).name, get<std::string_view>(fact["dtype"]));
    EXPECT_EQ(t.size, ints(fact["shape"])) << tensor_name;
    EXPECT_EQ(t.stride, ints(fact["stride"])) << tensor_name;
    EXPECT_EQ(static_cast<std::int64_t>(t.storage_offset), get<std::int64_t>(fact["storage_offset"])) << tensor_name;
    EXPECT_EQ(t.parameter, get<bool>(fact["parameter"])) << tensor_name;
    const scan::StorageLocation* s = ckpt.storage(t.storage_key);
    ASSERT_NE(s, nullptr) << tensor_name;
    EXPECT_TRUE(s->stored);
    EXPECT_LE(s->offset + s->bytes, file.size());
    simdjson::dom::array values;
    if (fact["values"].get(values) != simdjson::SUCCESS) continue;
    std::size_t i = 0;
    for (auto v : values) {
      EXPECT_EQ(value_at(file, *s, t, i), static_cast<float>(get<double>(v))) << tensor_name << "[" << i << "]";
      ++i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(TorchSave, CommittedCheckpoint,
                         ::testing::Values("dtypes.pt", "views.pt", "tied.pt", "lightning.ckpt", "embedding.pt",
                                           "parameters.pt", "legacy.pt"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '.') c = '_';
                           return n;
                         });

TEST(CommittedCheckpoint, ViewsAndTiedWeightsShareOneStorage) {
  const Checkpoint views = read_committed("views.pt");
  std::set<std::string> keys;
  for (const auto& t : views.contents.tensors) keys.insert(t.storage_key);
  EXPECT_EQ(keys.size(), 1u);
  const Checkpoint tied = read_committed("tied.pt");
  std::map<std::string, std::string> key_of;
  for (const auto& t : tied.contents.tensors) key_of[t.name] = t.storage_key;
  EXPECT_EQ(key_of["encoder.weight"], key_of["decoder.weight"]);
  EXPECT_NE(key_of["encoder.weight"], key_of["bias"]);
}

// Serves a file and records each range read.
class RecordingSource : public MemorySource {
 public:
  using MemorySource::MemorySource;
  bool read(std::uint64_t offset, std::span<std::uint8_t> out) const override {
    ranges.emplace_back(offset, offset + out.size());
    return MemorySource::read(offset, out);
  }
  mutable std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
};

TEST(CommittedCheckpoint, ScanningReadsNoStorage) {
  for (const char* name : {"dtypes.pt", "lightning.ckpt"}) {
    RecordingSource source(file_bytes(checkpoints_dir() / name));
    scan::ReadOptions options;
    options.locate_storages = false;
    const Checkpoint ckpt = scan::read_checkpoint(source, options);
    EXPECT_EQ(ckpt.report.verdict, scan::Verdict::Safe);
    EXPECT_FALSE(ckpt.contents.tensors.empty());
    const Checkpoint located = read_committed(name);
    ASSERT_FALSE(located.storages.empty());
    for (const auto& s : located.storages)
      for (const auto& [begin, end] : source.ranges)
        EXPECT_TRUE(end <= s.offset || begin >= s.offset + s.bytes)
            << name << ": read [" << begin << ", " << end << ") overlaps storage " << s.key;
  }
}

}  // namespace
}  // namespace safetensors::testing
