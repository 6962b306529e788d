// The pickle machine's working state, shared by its source files (pickle_machine.cpp reads
// operands and runs the loop; pickle_objects.cpp builds containers, globals and calls;
// pickle_references.cpp: persistent ids, extensions, buffers).
// Private to cpp/pickle.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pickle/pickle_machine.h"

namespace safetensors::pickle::detail {

/// @brief One run: the input, the stacks, the memo and the result being built.
class Machine {
 public:
  Machine(std::span<const std::uint8_t> bytes, const PickleLimits& limits) : bytes_(bytes), limits_(limits) {}
  PickleResult run();

 private:
  // pickle_machine.cpp: operands and the loop (pickle_text_ops.cpp: protocol 0's text lines)
  bool step(std::uint8_t op);
  bool fail(PickleIssue issue);
  void note(PickleIssue issue) { result_.findings.push_back({issue, op_offset_}); }
  std::optional<std::span<const std::uint8_t>> take(std::uint64_t n);
  std::optional<std::uint64_t> take_uint(int width);
  std::optional<std::string_view> take_line();
  bool push_text(Kind kind, std::uint64_t length_width);
  std::optional<std::uint64_t> take_index_line();
  bool push_int_line(bool is_long);
  bool push_float_line();
  bool push_string_line(Kind kind);
  bool push_long_bytes(std::span<const std::uint8_t> le);
  bool memo_get(std::uint64_t index);
  bool memo_put(std::uint64_t index);
  bool memo_op(std::optional<std::uint64_t> index, bool put);

  // pickle_objects.cpp: values, containers, globals, calls
  std::optional<ValueId> make(Kind kind);
  bool push(ValueId id);
  std::optional<ValueId> pop();
  std::optional<std::vector<ValueId>> pop_mark();
  bool push_collection(Kind kind, std::vector<ValueId> items);
  bool add_items(std::vector<ValueId> items, bool pairs);
  bool push_global(std::string module, std::string name, bool readable = true);
  bool push_call(CallKind kind, ValueId callable, ValueId args, ValueId kwargs);
  bool object_op(std::uint8_t op);
  bool reference_op(std::uint8_t op);  // pickle_references.cpp
  bool charge(std::uint64_t bytes);

  std::span<const std::uint8_t> bytes_;
  PickleLimits limits_;
  PickleResult result_;
  std::uint64_t pos_ = 0;
  std::uint64_t op_offset_ = 0;
  std::uint64_t allocated_ = 0;
  std::vector<ValueId> stack_;
  std::vector<std::size_t> marks_;
  std::unordered_map<std::uint64_t, ValueId> memo_;
};

}  // namespace safetensors::pickle::detail
