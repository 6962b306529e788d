// The scan: each global's class from the tables (torch's weights-only allowlist, the public
// scanners' denylist), the verdicts of the committed files (a pickle that calls os.system under
// protocols 0, 2 and 4 and inside a torch.save zip; NumPy files), and the evasion findings.
#include <gtest/gtest.h>

#include <set>

#include "checkpoint_source.h"
#include "scan/global_safety.h"
#include "scan/global_taint.h"
#include "scan/scan_json.h"

namespace safetensors::testing {
namespace {

using scan::Safety;
using scan::Verdict;

TEST(GlobalSafety, ClassesFromTheTables) {
  EXPECT_EQ(scan::classify_global("torch._utils", "_rebuild_tensor_v2"), Safety::Safe);
  EXPECT_EQ(scan::classify_global("torch", "BFloat16Storage"), Safety::Safe);
  EXPECT_EQ(scan::classify_global("torch", "float8_e4m3fn"), Safety::Safe);
  EXPECT_EQ(scan::classify_global("collections", "OrderedDict"), Safety::Safe);
  EXPECT_EQ(scan::classify_global("__builtin__", "set"), Safety::Safe);  // Python 2's name for builtins
  EXPECT_EQ(scan::classify_global("__builtin__", "eval"), Safety::Unsafe);
  EXPECT_EQ(scan::classify_global("posix", "system"), Safety::Unsafe);
  EXPECT_EQ(scan::classify_global("os.path", "join"), Safety::Unsafe);  // a submodule of a "*" module
  EXPECT_EQ(scan::classify_global("numpy.f2py.crackfortran", "getlincoef"), Safety::Unsafe);
  EXPECT_EQ(scan::classify_global("builtins", "getattr"), Safety::Unsafe);
  EXPECT_EQ(scan::classify_global("torch", "load"),
            Safety::Unknown);  // torch.serialization.load is listed, torch.load not
  EXPECT_EQ(scan::classify_global("numpy.core.multiarray", "_reconstruct"), Safety::Unknown);
  EXPECT_EQ(scan::classify_global("osx", "system"), Safety::Unknown);  // "os" matches whole module names only
}

TEST(GlobalSafety, NoGlobalIsInBothTables) {
  for (const auto& safe : scan::safe_globals()) {
    std::string_view names = safe.names;
    while (!names.empty()) {
      const auto space = names.find(' ');
      EXPECT_NE(scan::classify_global(safe.module, names.substr(0, space)), Safety::Unsafe) << safe.module;
      if (space == std::string_view::npos) break;
      names.remove_prefix(space + 1);
    }
  }
}

// The unsafe global's report entry, if any.
const scan::GlobalUse* unsafe_global(const scan::ScanReport& report) {
  for (const auto& g : report.globals)
    if (g.safety == Safety::Unsafe) return &g;
  return nullptr;
}

TEST(PickleScan, SystemCallIsUnsafeUnderEveryProtocol) {
  for (const char* name : {"os_system_p0.pkl", "os_system_p2.pkl", "os_system_p4.pkl"}) {
    const scan::Checkpoint ckpt = read_committed(name);
    EXPECT_EQ(ckpt.report.format, scan::FileFormat::Pickle) << name;
    EXPECT_EQ(ckpt.report.verdict, Verdict::Unsafe) << name;
    const scan::GlobalUse* g = unsafe_global(ckpt.report);
    ASSERT_NE(g, nullptr) << name;
    EXPECT_EQ(g->module, "posix");
    EXPECT_EQ(g->name, "system");
    EXPECT_EQ(g->count, 1u);
  }
}

TEST(PickleScan, SystemCallInsideATorchZip) {
  const scan::Checkpoint ckpt = read_committed("os_system.pt");
  EXPECT_EQ(ckpt.report.format, scan::FileFormat::PytorchZip);
  EXPECT_EQ(ckpt.report.verdict, Verdict::Unsafe);
  ASSERT_NE(unsafe_global(ckpt.report), nullptr);
  EXPECT_EQ(unsafe_global(ckpt.report)->where, "os_system/data.pkl");
  ASSERT_EQ(ckpt.contents.tensors.size(), 1u);  // the tensors are still read, nothing runs
  EXPECT_EQ(ckpt.contents.tensors[0].name, "weight");
}

TEST(PickleScan, NumPyFiles) {
  const scan::Checkpoint array = read_committed("array.npy");
  EXPECT_EQ(array.report.format, scan::FileFormat::Npy);
  EXPECT_EQ(array.report.verdict, Verdict::Safe);
  EXPECT_TRUE(array.report.globals.empty());
  const scan::Checkpoint objects = read_committed("objects.npy");  // a pickle of numpy's own globals
  EXPECT_EQ(objects.report.verdict, Verdict::Unknown);
  EXPECT_FALSE(objects.report.globals.empty());
  const scan::Checkpoint npz = read_committed("arrays.npz");
  EXPECT_EQ(npz.report.format, scan::FileFormat::Zip);
  EXPECT_EQ(npz.report.verdict, Verdict::Safe);
}

std::set<std::string_view> codes(const scan::ScanReport& report) {
  std::set<std::string_view> out;
  for (const auto& f : report.findings) out.insert(f.code);
  return out;
}

TEST(PickleScan, DataAfterStop) {
  const std::string one = file_bytes(checkpoints_dir() / "data_p2.pkl");
  const std::string payload = file_bytes(checkpoints_dir() / "os_system_p2.pkl");
  MemorySource source(one + payload);  // a second pickle behind the first: its globals count too
  const scan::Checkpoint ckpt = scan::read_checkpoint(source);
  EXPECT_TRUE(codes(ckpt.report).contains("data-after-stop"));
  EXPECT_EQ(ckpt.report.verdict, Verdict::Unsafe);
  ASSERT_NE(unsafe_global(ckpt.report), nullptr);
  const auto alone =
      pickle::run_pickle(std::span(reinterpret_cast<const std::uint8_t*>(payload.data()), payload.size()));
  ASSERT_EQ(alone.globals.size(), 1u);
  EXPECT_EQ(unsafe_global(ckpt.report)->offset, one.size() + alone.globals[0].offset);  // in the whole stream
}

TEST(PickleScan, LegacyMagicProducedByACall) {
  // legacy.pt with its first pickle (the magic number) replaced by int('1950a86a20f9469cfc6c', 16).
  const std::string legacy = file_bytes(checkpoints_dir() / "legacy.pt");
  ASSERT_GT(legacy.size(), 15u);
  const std::string digits = "1950a86a20f9469cfc6c";
  const std::string call = std::string(
                               "\x80\x02"
                               "c__builtin__\nint\nX") +
                           std::string(1, char(digits.size())) + std::string(3, '\0') + digits + "K\x10\x86R.";
  MemorySource source(call + legacy.substr(15));
  const scan::Checkpoint ckpt = scan::read_checkpoint(source);
  EXPECT_EQ(ckpt.report.format, scan::FileFormat::PytorchLegacy);
  EXPECT_TRUE(codes(ckpt.report).contains("legacy-magic-by-call"));
  EXPECT_NE(ckpt.report.verdict, Verdict::Safe);
  EXPECT_EQ(ckpt.contents.tensors.size(), 2u);
}

std::vector<Safety> safeties(std::string_view bytes) {
  return scan::global_safeties(
      pickle::run_pickle(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size())));
}

TEST(PickleScan, SafeGlobalsFeedingAnUnsafeCallAreNotSafe) {
  const std::string encode = "c_codecs\nencode\n(VI1.\nVlatin1\ntR";
  EXPECT_EQ(safeties(encode + "."), std::vector<Safety>{Safety::Safe});  // bytes, as protocol 2 writes them
  // pickle.loads(_codecs.encode(...)): the bytes become a pickle that runs.
  EXPECT_EQ(safeties("cpickle\nloads\n(" + encode + "tR."), (std::vector<Safety>{Safety::Unsafe, Safety::Unknown}));
}

TEST(PickleScan, GlobalsOfARewrittenModuleAreUnsafe) {
  // BUILD on torch._utils replaces _rebuild_tensor (sys.modules override): the name no longer
  // means what the allowlist says.
  const std::string bytes = "ctorch\n_utils\n}V_rebuild_tensor\nVeval\nsb0ctorch._utils\n_rebuild_tensor\n.";
  EXPECT_EQ(safeties(bytes), (std::vector<Safety>{Safety::Unsafe, Safety::Unsafe}));  // the target, the rewritten name
  MemorySource source(bytes);
  const scan::Checkpoint ckpt = scan::read_checkpoint(source);
  EXPECT_EQ(ckpt.report.verdict, Verdict::Unsafe);
  EXPECT_TRUE(codes(ckpt.report).contains("global-mutated"));
}

TEST(PickleScan, PickleNamedSafetensors) {
  scan::ReadOptions options;
  options.file_name = "model.safetensors";
  const scan::Checkpoint renamed = read_committed("views.pt", options);
  EXPECT_TRUE(codes(renamed.report).contains("pickle-named-safetensors"));
  EXPECT_EQ(renamed.report.verdict, Verdict::Unknown);
  options.file_name = "model.pt";
  EXPECT_EQ(read_committed("views.pt", options).report.verdict, Verdict::Safe);
}

// torch 2.x's float8 tensors (torch 1.13 here cannot write them): _rebuild_tensor_v3 over an
// UntypedStorage whose numel counts bytes, the dtype given as the global torch.float8_e4m3fn
// (argument order: torch/_utils.py; storage id: persistent_id in torch/serialization.py).
TEST(PickleScan, Float8TensorOfRebuildTensorV3) {
  const auto str = [](std::string_view text) {
    std::string out = "X";
    for (int i = 0; i < 4; ++i) out += static_cast<char>((text.size() >> (8 * i)) & 0xFF);
    return out + std::string(text);
  };
  const std::string bytes = "\x80\x02}" + str("w") + "ctorch._utils\n_rebuild_tensor_v3\n((" + str("storage") +
                            "ctorch\nUntypedStorage\n" + str("0") + str("cpu") +
                            "K\x06tQK\x02K\x02K\x02\x86K\x02K\x01\x86" +
                            "\x89"
                            "ccollections\nOrderedDict\n)Rctorch\nfloat8_e4m3fn\ntRs.";
  MemorySource source(bytes);
  const scan::Checkpoint ckpt = scan::read_checkpoint(source);
  EXPECT_EQ(ckpt.report.verdict, Verdict::Safe);
  ASSERT_EQ(ckpt.contents.tensors.size(), 1u);
  const pickle::TensorRecord& t = ckpt.contents.tensors[0];
  EXPECT_EQ(t.name, "w");
  EXPECT_EQ(pickle::torch_dtype_info(t.dtype).name, "float8_e4m3fn");
  EXPECT_EQ(pickle::torch_dtype_info(t.dtype).safetensors, Dtype::F8_E4M3);
  EXPECT_TRUE(t.numel_in_bytes);
  EXPECT_EQ(t.storage_numel, 6u);
  EXPECT_EQ(t.storage_key, "0");
  EXPECT_EQ(t.storage_offset, 2u);
  EXPECT_EQ(t.size, (std::vector<std::int64_t>{2, 2}));
  EXPECT_EQ(t.stride, (std::vector<std::int64_t>{2, 1}));
}

// Protocol 0 keeps a GLOBAL's names and a STRING's text as raw bytes, which need not be UTF-8:
// the JSON shows each stray byte as U+FFFD, never the byte itself (it would not be UTF-8).
TEST(PickleScan, JsonOfBytesThatAreNotUtf8) {
  MemorySource source(std::string("(dp0\nS'k\xff'\nI1\nsS'w'\ncmod\n\xf8x\n(S'a'\ntRs."));
  const scan::Checkpoint ckpt = scan::read_checkpoint(source);
  ASSERT_EQ(ckpt.report.globals.size(), 1u);
  EXPECT_EQ(ckpt.report.globals[0].name, "\xf8x");  // the report keeps the bytes
  std::string scan_json = "prefix \xff";            // what was there before is left alone
  scan::write_scan_json(ckpt.report, "f.pkl", scan_json);
  EXPECT_EQ(scan_json.substr(0, 8), "prefix \xff");
  EXPECT_NE(scan_json.find("\"name\":\"\xEF\xBF\xBD"
                           "x\""),
            std::string::npos)
      << scan_json;
  std::string checkpoint_json;
  scan::write_checkpoint_json(ckpt, "f.pkl", checkpoint_json);
  for (const std::string* json : {&scan_json, &checkpoint_json}) {
    const std::string_view tail = std::string_view(*json).substr(json == &scan_json ? 8 : 0);
    EXPECT_EQ(tail.find('\xff'), std::string_view::npos) << tail;
    EXPECT_EQ(tail.find('\xf8'), std::string_view::npos) << tail;
  }
  EXPECT_NE(checkpoint_json.find("\xEF\xBF\xBD"), std::string::npos) << checkpoint_json;
}

TEST(PickleScan, NotAPickle) {
  MemorySource source(std::string("hello, this is text\n"));
  const scan::Checkpoint ckpt = scan::read_checkpoint(source);
  EXPECT_EQ(ckpt.report.format, scan::FileFormat::NotPickle);
  EXPECT_EQ(ckpt.report.verdict, Verdict::Unknown);
  MemorySource empty(std::string{});
  EXPECT_EQ(scan::read_checkpoint(empty).report.format, scan::FileFormat::NotPickle);
}

}  // namespace
}  // namespace safetensors::testing
