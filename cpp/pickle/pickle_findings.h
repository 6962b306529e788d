// What the pickle machine can report: malformed input, a hard limit reached, or a construct
// a reader should know about. One table holds each code's stable name and message.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace safetensors::pickle {

/// @brief A finding's code (rows of kPickleIssues).
enum class PickleIssue : std::uint8_t {
  Truncated,        ///< the stream ends inside an opcode or before STOP
  UnknownOpcode,    ///< a byte that is no opcode of protocols 0-5
  StackUnderflow,   ///< an opcode needs more items than the stack holds
  MarkMissing,      ///< an opcode needs a mark and there is none
  MemoMissing,      ///< GET of a memo index never written
  BadOperand,       ///< an operand of the wrong kind (e.g. SETITEM on a non-dict)
  BadText,          ///< a text-line operand that does not parse
  OpcodeLimit,      ///< more opcodes than the limit
  StackLimit,       ///< the stack (or the marks) deeper than the limit
  MemoLimit,        ///< more memo entries than the limit
  StringLimit,      ///< a string or bytes longer than the limit
  AllocationLimit,  ///< the values built exceed the total allocation limit
  ExtensionCode,    ///< EXT1/EXT2/EXT4: a global named through the copyreg registry
  NonStringGlobal,  ///< STACK_GLOBAL whose module or name is not a string
  OutOfBandBuffer,  ///< NEXT_BUFFER: data the pickle does not hold
  DataAfterStop,    ///< bytes follow the STOP opcode
  GlobalMutated,    ///< BUILD on a global: a module's or class's attributes replaced
};

/// @brief A code's stable name and what it means.
struct PickleIssueInfo {
  std::string_view name;     ///< e.g. "truncated"
  std::string_view message;  ///< plain words
  bool fatal;                ///< whether the machine stops there
};

/// @brief Number of PickleIssue values.
inline constexpr int kPickleIssueCount = 17;

/// @brief The table, indexed by PickleIssue.
inline constexpr std::array<PickleIssueInfo, kPickleIssueCount> kPickleIssues{{
    {"truncated", "the pickle ends before its STOP opcode", true},
    {"unknown-opcode", "a byte that is not a pickle opcode", true},
    {"stack-underflow", "an opcode takes more values than the stack holds", true},
    {"mark-missing", "an opcode needs a MARK and there is none", true},
    {"memo-missing", "a memo read of an index never written", true},
    {"bad-operand", "an opcode applied to a value of the wrong kind", true},
    {"bad-text", "a text operand that does not parse", true},
    {"opcode-limit", "more opcodes than the reader's limit", true},
    {"stack-limit", "the stack grows deeper than the reader's limit", true},
    {"memo-limit", "more memo entries than the reader's limit", true},
    {"string-limit", "a string or bytes value longer than the reader's limit", true},
    {"allocation-limit", "the values built exceed the reader's memory limit", true},
    {"extension-code", "a global named by copyreg extension code, not by name", false},
    {"non-string-global", "STACK_GLOBAL with a module or name that is not a string", false},
    {"out-of-band-buffer", "a buffer passed outside the pickle", false},
    {"data-after-stop", "bytes follow the pickle's STOP opcode", false},
    {"global-mutated", "BUILD replaces attributes of a module or class the pickle names", false},
}};

/// @brief The row of `issue`.
constexpr const PickleIssueInfo& pickle_issue_info(PickleIssue issue) {
  return kPickleIssues[static_cast<std::size_t>(issue)];
}

/// @brief One finding: what, and the byte offset of the opcode (in the pickle).
struct PickleFinding {
  PickleIssue issue;     ///< the code
  std::uint64_t offset;  ///< where
};

/// @brief The hard limits of one run; a run that reaches one stops with its finding.
struct PickleLimits {
  std::uint64_t max_opcodes = 50'000'000;       ///< opcodes executed
  std::uint32_t max_stack = 100'000;            ///< stack items plus marks
  std::uint32_t max_memo = 10'000'000;          ///< memo entries
  std::uint64_t max_string = 64u << 20;         ///< one str/bytes/long operand, bytes
  std::uint64_t max_allocation = 256ull << 20;  ///< all values built, estimated bytes
};

}  // namespace safetensors::pickle
