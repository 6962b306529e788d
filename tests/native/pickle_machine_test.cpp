// The pickle machine on Python's own pickles of one dict under protocols 0-5
// (tests/checkpoints/data_p*.pkl, written by make_checkpoints.py), and on malformed and hostile
// streams: each ends with its typed finding, never a crash.
#include <gtest/gtest.h>

#include <string>

#include "checkpoint_source.h"
#include "pickle/pickle_machine.h"
#include "pickle/torch_records.h"

namespace safetensors::testing {
namespace {

using pickle::Kind;
using pickle::PickleIssue;
using pickle::PickleResult;
using pickle::Value;

PickleResult run(std::string_view bytes, const pickle::PickleLimits& limits = {}) {
  return pickle::run_pickle(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), limits);
}

// The value under `key` in a dict root.
const Value* entry(const PickleResult& p, std::string_view key) {
  const Value& root = p.at(p.root);
  for (std::size_t i = 0; i + 1 < root.items.size(); i += 2)
    if (p.at(root.items[i]).text == key) return &p.at(root.items[i + 1]);
  return nullptr;
}

class PickleProtocol : public ::testing::TestWithParam<int> {};

TEST_P(PickleProtocol, ReadsPythonsData) {
  const int protocol = GetParam();
  const std::string bytes = file_bytes(checkpoints_dir() / ("data_p" + std::to_string(protocol) + ".pkl"));
  ASSERT_FALSE(bytes.empty());
  const PickleResult p = run(bytes);
  ASSERT_TRUE(p.complete);
  EXPECT_EQ(p.end, bytes.size());
  EXPECT_TRUE(p.findings.empty());
  EXPECT_EQ(p.protocol, protocol >= 2 ? protocol : 0);
  ASSERT_EQ(p.at(p.root).kind, Kind::Dict);
  EXPECT_EQ(entry(p, "int")->integer, 7);
  EXPECT_EQ(entry(p, "negative")->integer, -300);
  EXPECT_EQ(entry(p, "float")->real, 1.5);
  if (protocol >= 3) {
    EXPECT_EQ(entry(p, "bytes")->text, std::string("\0\1", 2));
  } else {  // before BINBYTES: a call of _codecs.encode(text, 'latin1')
    EXPECT_TRUE(pickle::is_global(p, entry(p, "bytes")->items[0], "_codecs", "encode"));
  }
  const Value* big = entry(p, "big");
  ASSERT_EQ(big->kind, Kind::BigInt);
  if (protocol >= 2) {  // LONG1: 2**100 little-endian
    EXPECT_EQ(big->text, std::string(12, '\0') + "\x10");
  } else {
    EXPECT_EQ(big->text, "1267650600228229401496703205376");
  }
  if (protocol >= 1) EXPECT_EQ(entry(p, "text")->text, "h\xc3\xa9llo");
  const Value* list = entry(p, "list");
  ASSERT_EQ(list->kind, Kind::List);
  ASSERT_EQ(list->items.size(), 3u);
  EXPECT_EQ(p.at(list->items[2]).kind, Kind::List);
  const Value* tuple = entry(p, "tuple");
  ASSERT_EQ(tuple->kind, Kind::Tuple);
  EXPECT_EQ(p.at(tuple->items[2]).kind, Kind::None);
  const Value* flags = entry(p, "flags");
  EXPECT_EQ(p.at(flags->items[0]).kind, Kind::Bool);
  EXPECT_EQ(p.at(flags->items[0]).integer, 1);
  EXPECT_EQ(p.at(flags->items[1]).integer, 0);
  // Sets: EMPTY_SET/ADDITEMS and FROZENSET from protocol 4; a call of set/frozenset before.
  EXPECT_EQ(entry(p, "set")->kind, protocol >= 4 ? Kind::Set : Kind::Call);
  EXPECT_EQ(entry(p, "frozen")->kind, protocol >= 4 ? Kind::FrozenSet : Kind::Call);
  const Value* ordered = entry(p, "ordered");
  ASSERT_EQ(ordered->kind, Kind::Call);
  EXPECT_TRUE(pickle::is_global(p, ordered->items[0], "collections", "OrderedDict"));
  bool named = false;
  for (const auto& g : p.globals) named |= g.module == "collections" && g.name == "OrderedDict";
  EXPECT_TRUE(named);
}

INSTANTIATE_TEST_SUITE_P(Python, PickleProtocol, ::testing::Range(0, 6));

TEST(PickleMachine, EveryPrefixEndsWithAFinding) {
  const std::string bytes = file_bytes(checkpoints_dir() / "data_p2.pkl");
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const PickleResult p = run(std::string_view(bytes).substr(0, n));
    EXPECT_FALSE(p.complete) << n;
    ASSERT_FALSE(p.findings.empty()) << n;
    EXPECT_TRUE(pickle::pickle_issue_info(p.findings.back().issue).fatal) << n;
  }
}

struct Malformed {
  const char* label;  ///< test name
  std::string bytes;  ///< the stream
  PickleIssue issue;  ///< the finding it ends with
};

class PickleMalformed : public ::testing::TestWithParam<Malformed> {};

TEST_P(PickleMalformed, EndsWithItsFinding) {
  const Malformed m = GetParam();
  pickle::PickleLimits limits;
  limits.max_stack = 64;
  limits.max_memo = 4;
  limits.max_string = 1000;
  limits.max_opcodes = 10'000;
  limits.max_allocation = 1 << 20;
  const PickleResult p = run(m.bytes, limits);
  ASSERT_FALSE(p.findings.empty());
  EXPECT_EQ(pickle::pickle_issue_info(p.findings.back().issue).name, pickle::pickle_issue_info(m.issue).name);
}

INSTANTIATE_TEST_SUITE_P(Streams, PickleMalformed,
                         ::testing::Values(Malformed{"empty", "", PickleIssue::Truncated},
                                           Malformed{"unknown_opcode", "\xff", PickleIssue::UnknownOpcode},
                                           Malformed{"pop_empty", "0", PickleIssue::StackUnderflow},
                                           Malformed{"stop_empty", "\x80\x02.", PickleIssue::StackUnderflow},
                                           Malformed{"memo_missing", "h\x05.", PickleIssue::MemoMissing},
                                           Malformed{"tuple_without_mark", "Nt.", PickleIssue::MarkMissing},
                                           Malformed{"setitem_on_list", "]NNs.", PickleIssue::BadOperand},
                                           Malformed{"bad_int_line", "I12x\n.", PickleIssue::BadText},
                                           Malformed{"stack_limit", std::string(100, '('), PickleIssue::StackLimit},
                                           Malformed{"memo_limit", "N\x94\x94\x94\x94\x94.", PickleIssue::MemoLimit},
                                           Malformed{"string_limit", std::string("X\x00\xca\x9a\x3b", 5),
                                                     PickleIssue::StringLimit},
                                           Malformed{"opcode_limit",
                                                     [] {
                                                       std::string s;
                                                       for (int i = 0; i < 10'000; ++i) s += "N0";  // NONE, POP
                                                       return s;
                                                     }(),
                                                     PickleIssue::OpcodeLimit},
                                           // 2,000 strings of 900 bytes, each pushed and popped: 1.8 MB built in all.
                                           Malformed{"allocation_limit",
                                                     [] {
                                                       std::string s;
                                                       for (int i = 0; i < 2'000; ++i)
                                                         s += std::string("X\x84\x03\0\0", 5) + std::string(900, 'a') +
                                                              "0";
                                                       return s;
                                                     }(),
                                                     PickleIssue::AllocationLimit}),
                         [](const auto& info) { return std::string(info.param.label); });

TEST(PickleMachine, ExtensionsAndNonStringGlobalsAreFindings) {
  const PickleResult ext = run("\x80\x02\x82\x07.");
  EXPECT_TRUE(ext.complete);
  EXPECT_TRUE(ext.has(PickleIssue::ExtensionCode));
  const PickleResult stack_global = run("\x80\x04K\x01K\x02\x93.");
  EXPECT_TRUE(stack_global.has(PickleIssue::NonStringGlobal));
  ASSERT_EQ(stack_global.globals.size(), 1u);
  EXPECT_EQ(stack_global.globals[0].module, "1");  // read as its text, as picklescan does
  EXPECT_EQ(stack_global.globals[0].name, "2");
  EXPECT_FALSE(stack_global.globals[0].readable);
}

TEST(PickleMachine, CallsStayRecords) {
  // GLOBAL posix system, ('echo',), REDUCE: a record of the call, nothing more.
  const PickleResult p = run(std::string("cposix\nsystem\n(X\x04\0\0\0", 20) + "echotR.");
  ASSERT_TRUE(p.complete);
  const Value& call = p.at(p.root);
  ASSERT_EQ(call.kind, Kind::Call);
  EXPECT_TRUE(pickle::is_global(p, call.items[0], "posix", "system"));
  EXPECT_EQ(p.at(p.at(call.items[1]).items[0]).text, "echo");
}

TEST(PickleMachine, SelfReferenceEndsTheWalk) {
  // A list holding itself a thousand times, holding itself...: the tensor walk stops.
  std::string s("]q\0", 3);
  for (int i = 0; i < 1000; ++i) s += std::string("h\0", 2);
  s += "e.";
  s.insert(3, "(");
  const PickleResult p = run(s);
  ASSERT_TRUE(p.complete);
  const pickle::TorchContents c = pickle::read_torch_tensors(p);
  EXPECT_TRUE(c.tensors.empty());
  ASSERT_EQ(c.findings.size(), 1u);
}

}  // namespace
}  // namespace safetensors::testing
