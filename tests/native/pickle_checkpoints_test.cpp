// read_checkpoint on checkpoints torch.save wrote (tests/checkpoints/make_checkpoints.py), against
// what torch itself said about each tensor after loading the file (expected.json): format,
// verdict, names, dtype, shape, stride, storage offset, Parameter or not, and for small float32
// tensors the values read from the file's bytes through the storage location and strides.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <set>

#include "checkpoint_source.h"
#include "expected_json.h"
#include "simdjson.h"

namespace safetensors::testing {
namespace {

using scan::Checkpoint;

simdjson::dom::element expected_json() { return checkpoints_json("expected.json"); }

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

// Every tensor of `ckpt` (read from `file`) against torch's facts about it.
void expect_torch_facts(const std::string& file, const Checkpoint& ckpt, simdjson::dom::element facts) {
  auto ours = tensors_by_name(ckpt.contents);
  auto tensors = get<simdjson::dom::object>(facts["tensors"]);
  EXPECT_EQ(ours.size(), tensors.size());
  for (auto [key, fact] : tensors) {
    const std::string tensor_name(key);
    ASSERT_TRUE(ours.contains(tensor_name)) << tensor_name;
    const pickle::TensorRecord& t = *ours[tensor_name];
    expect_tensor_facts(t, fact, tensor_name);
    const scan::StorageLocation* s = ckpt.storage(t.storage_key);
    ASSERT_NE(s, nullptr) << tensor_name;
    EXPECT_LE(s->offset + s->bytes, file.size());
    simdjson::dom::array values;
    if (!s->stored || fact["values"].get(values) != simdjson::SUCCESS) continue;
    std::size_t i = 0;
    for (simdjson::dom::element v : values) {
      EXPECT_EQ(value_at(file, *s, t, i), static_cast<float>(get<double>(v))) << tensor_name << "[" << i << "]";
      ++i;
    }
  }
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
  expect_torch_facts(file, ckpt, facts);
  for (const auto& s : ckpt.storages) EXPECT_TRUE(s.stored) << s.key;
}

INSTANTIATE_TEST_SUITE_P(TorchSave, CommittedCheckpoint,
                         ::testing::Values("dtypes.pt", "views.pt", "tied.pt", "lightning.ckpt", "embedding.pt",
                                           "parameters.pt", "legacy.pt"),
                         [](const auto& info) { return param_name(info.param); });

// views.pt re-zipped by Python's zipfile: the same tensors wherever the records moved.
struct ZipVariant {
  const char* file;     ///< in tests/checkpoints
  const char* finding;  ///< the one finding expected ("" for none)
};

class ZipLayout : public ::testing::TestWithParam<ZipVariant> {};

TEST_P(ZipLayout, ReadsTheSameTensors) {
  const ZipVariant v = GetParam();
  const std::string file = file_bytes(checkpoints_dir() / v.file);
  ASSERT_FALSE(file.empty()) << v.file;
  MemorySource source(file);
  const Checkpoint ckpt = scan::read_checkpoint(source);
  EXPECT_EQ(ckpt.report.format, scan::FileFormat::PytorchZip);
  std::set<std::string_view> codes;
  for (const auto& f : ckpt.report.findings) codes.insert(f.code);
  if (std::string_view(v.finding).empty()) {
    EXPECT_TRUE(codes.empty()) << *codes.begin();
    EXPECT_EQ(ckpt.report.verdict, scan::Verdict::Safe);
  } else {
    EXPECT_TRUE(codes.contains(v.finding)) << v.file;
    EXPECT_EQ(ckpt.report.verdict, scan::Verdict::Unknown);
  }
  expect_torch_facts(file, ckpt, get<simdjson::dom::element>(expected_json()["views.pt"]));
}

INSTANTIATE_TEST_SUITE_P(Zipfile, ZipLayout,
                         ::testing::Values(ZipVariant{"views_zip64.pt", ""}, ZipVariant{"views_descriptor.pt", ""},
                                           ZipVariant{"views_prefix.pt", "archive-prefix"},
                                           ZipVariant{"views_disagree.pt", "local-header-disagrees"}),
                         [](const auto& info) {
                           std::string n = info.param.file;
                           return n.substr(0, n.find('.'));
                         });

TEST(CommittedCheckpoint, DeflatedPickleNeedsTheCallersInflate) {
  const Checkpoint without = read_committed("views_deflated.pt");
  EXPECT_EQ(without.report.verdict, scan::Verdict::Unknown);
  ASSERT_FALSE(without.report.findings.empty());
  EXPECT_EQ(without.report.findings[0].code, "needs-inflate");
  EXPECT_TRUE(without.contents.tensors.empty());
  // An inflate that knows the answer (views.pt's stored data.pkl) stands in for the browser's
  // DecompressionStream: it is called with the compressed record and its inflated size.
  const Checkpoint stored = read_committed("views.pt");
  std::uint64_t asked = 0;
  scan::ReadOptions options;
  options.inflate = [&](std::span<const std::uint8_t> compressed, std::uint64_t size) {
    asked = size;
    EXPECT_LT(compressed.size(), size);
    const std::string file = file_bytes(checkpoints_dir() / "views.pt");
    const auto u16 = [&](std::size_t at) {
      return std::size_t(std::uint8_t(file[at])) | std::uint8_t(file[at + 1]) << 8;
    };
    const std::string_view pickle(file.data() + 30 + u16(26) + u16(28), size);  // after the local header
    return std::optional<std::vector<std::uint8_t>>(std::in_place, pickle.begin(), pickle.end());
  };
  const Checkpoint with = read_committed("views_deflated.pt", options);
  EXPECT_GT(asked, 0u);
  EXPECT_EQ(with.report.verdict, scan::Verdict::Safe);
  EXPECT_EQ(with.contents.tensors.size(), stored.contents.tensors.size());
  for (const auto& s : with.storages) {
    EXPECT_FALSE(s.stored) << s.key;      // deflated storages: not readable by range
    EXPECT_LT(s.bytes, s.size) << s.key;  // compressed in the file, inflated size and CRC from the directory
    EXPECT_NE(s.crc32, 0u) << s.key;
  }
  for (const auto& s : stored.storages) EXPECT_EQ(s.bytes, s.size) << s.key;
}

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

// A quantized tensor is read as a tensor of a torch dtype safetensors lacks (quint8: convert
// refuses it by name); a sparse one is no strided view of one storage: a finding, not a tensor.
TEST(CommittedCheckpoint, QuantizedIsATensorWithoutASafetensorsDtypeSparseAFinding) {
  const Checkpoint ckpt = read_committed("other_tensors.pt");  // torch.save of both beside a plain one
  std::vector<std::string> other;
  for (const auto& f : ckpt.contents.findings)
    if (f.issue == pickle::TensorIssue::OtherTensor) other.push_back(f.name);
  EXPECT_EQ(other, (std::vector<std::string>{"sparse"}));
  ASSERT_EQ(ckpt.contents.tensors.size(), 2u);
  EXPECT_EQ(ckpt.contents.tensors[0].name, "weight");
  EXPECT_EQ(ckpt.contents.tensors[1].name, "quantized");
  EXPECT_EQ(pickle::torch_dtype_info(ckpt.contents.tensors[1].dtype).name, "quint8");
  EXPECT_FALSE(pickle::torch_dtype_info(ckpt.contents.tensors[1].dtype).safetensors.has_value());
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
