// read_checkpoint on checkpoints laid out as torch 2.x's torch.save writes them
// (tests/checkpoints/make_torch2_checkpoints.py: byteorder, .format_version, .storage_alignment
// and .data/serialization_id records, 64-byte aligned data, the archive named after the file,
// _rebuild_tensor_v3 over UntypedStorage for float8/uint16/uint32/uint64 and the other new
// dtypes, _rebuild_parameter_with_state, _rebuild_from_type_v2, _get_layout) against what the
// generator recorded (torch2_expected.json): every tensor's dtype, shape, stride, offset, flags
// and its bytes in row-major order gathered from the file through the located storage; and the
// legacy format as torch 2.x's _legacy_save writes it, whose UntypedStorages count bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "checkpoint_source.h"
#include "expected_json.h"
#include "simdjson.h"

namespace safetensors::testing {
namespace {

using scan::Checkpoint;

simdjson::dom::element torch2_json() { return checkpoints_json("torch2_expected.json"); }

std::string hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

// The tensor's bytes in row-major order, gathered from the file through its strides; a
// big-endian file's elements swapped back (per half for complex dtypes, as torch.load does).
std::string gathered(const std::string& file, const scan::StorageLocation& s, const pickle::TensorRecord& t,
                     bool big_endian) {
  const auto& info = pickle::torch_dtype_info(t.dtype);
  const std::size_t size = info.element_size;
  const std::size_t unit = info.name.starts_with("complex") ? size / 2 : size;
  std::size_t count = 1;
  for (auto n : t.size) count *= static_cast<std::size_t>(n);
  std::string out;
  for (std::size_t index = 0; index < count; ++index) {
    std::uint64_t element = t.storage_offset;
    for (std::size_t d = t.size.size(), rest = index; d-- > 0;) {
      const auto dim = static_cast<std::size_t>(t.size[d]);
      element += (rest % dim) * static_cast<std::uint64_t>(t.stride[d]);
      rest /= dim;
    }
    std::string e = file.substr(s.offset + element * size, size);
    if (big_endian)
      for (std::size_t at = 0; at < size; at += unit) std::reverse(e.begin() + at, e.begin() + at + unit);
    out += e;
  }
  return out;
}

TEST(Torch2Checkpoints, EveryFileReadsAsTheGeneratorWroteIt) {
  auto files = get<simdjson::dom::object>(torch2_json());
  EXPECT_GE(files.size(), 5u);
  for (auto [file_key, facts] : files) {
    const std::string name(file_key);
    SCOPED_TRACE(name);
    const std::string file = file_bytes(checkpoints_dir() / name);
    ASSERT_FALSE(file.empty());
    MemorySource source(file);
    const Checkpoint ckpt = scan::read_checkpoint(source);
    EXPECT_EQ(scan::format_name(ckpt.report.format), get<std::string_view>(facts["format"]));
    EXPECT_EQ(ckpt.report.verdict, scan::Verdict::Safe);
    for (const auto& f : ckpt.report.findings) ADD_FAILURE() << f.code << " at " << f.where;
    for (const auto& g : ckpt.report.globals) EXPECT_EQ(g.safety, scan::Safety::Safe) << g.module << "." << g.name;
    // torch's PyTorchStreamWriter names the archive folder after the file, extension dropped
    // ("archive" for a stream).
    const bool zip = ckpt.report.format == scan::FileFormat::PytorchZip;
    if (zip) EXPECT_EQ(ckpt.data_where, std::string(get<std::string_view>(facts["folder"])) + "/data.pkl");
    const std::string_view byteorder = get<std::string_view>(facts["byteorder"]);
    EXPECT_EQ(ckpt.byteorder, byteorder);
    auto ours = tensors_by_name(ckpt.contents);
    auto tensors = get<simdjson::dom::object>(facts["tensors"]);
    EXPECT_EQ(ours.size(), tensors.size());
    for (auto [key, fact] : tensors) {
      const std::string tensor(key);
      ASSERT_TRUE(ours.contains(tensor)) << tensor;
      const pickle::TensorRecord& t = *ours[tensor];
      expect_tensor_facts(t, fact, tensor);
      EXPECT_EQ(t.storage_key, get<std::string_view>(fact["storage"])) << tensor;
      EXPECT_EQ(t.location, get<std::string_view>(fact["location"])) << tensor;
      EXPECT_EQ(t.requires_grad, get<bool>(fact["requires_grad"])) << tensor;
      EXPECT_EQ(t.numel_in_bytes, pickle::torch_dtype_info(t.dtype).storage.empty()) << tensor;
      const scan::StorageLocation* s = ckpt.storage(t.storage_key);
      ASSERT_NE(s, nullptr) << tensor;
      EXPECT_TRUE(s->stored) << tensor;
      if (zip) EXPECT_EQ(s->offset % 64, 0u) << tensor << ": torch aligns every record's data to 64 bytes";
      EXPECT_EQ(static_cast<std::int64_t>(s->bytes), get<std::int64_t>(fact["storage_nbytes"])) << tensor;
      EXPECT_EQ(hex(gathered(file, *s, t, byteorder == "big")), get<std::string_view>(fact["bytes"])) << tensor;
    }
  }
}

TEST(Torch2Checkpoints, ScanningLeavesTheByteorderRecordUnread) {
  scan::ReadOptions options;
  options.locate_storages = false;
  const Checkpoint ckpt = read_committed("torch2_dtypes_big.pt", options);
  EXPECT_EQ(ckpt.report.verdict, scan::Verdict::Safe);
  EXPECT_EQ(ckpt.byteorder, "");
  EXPECT_TRUE(ckpt.storages.empty());
}

// The dtypes torch 2.x saves as UntypedStorage plus a dtype: the id's numel counts bytes, the
// dtype comes from _rebuild_tensor_v3's seventh argument.
TEST(Torch2Checkpoints, NewDtypesAreUntypedStoragesOfBytes) {
  const Checkpoint ckpt = read_committed("torch2_dtypes.pt");
  auto by_name = tensors_by_name(ckpt.contents);
  for (const char* name : {"float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu",
                           "uint16", "uint32", "uint64", "complex32", "bits16", "float4_e2m1fn_x2"}) {
    ASSERT_TRUE(by_name.contains(name)) << name;
    const auto& t = *by_name[name];
    EXPECT_TRUE(t.numel_in_bytes) << name;
    EXPECT_EQ(t.storage_numel, 6u * pickle::torch_dtype_info(t.dtype).element_size) << name;
  }
  EXPECT_FALSE(by_name["float32"]->numel_in_bytes);
  EXPECT_EQ(by_name["float32"]->storage_numel, 6u);
}

}  // namespace
}  // namespace safetensors::testing
