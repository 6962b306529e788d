// The pickle machine's loop and operand readers (opcode semantics: Python's Lib/pickle.py and
// Lib/pickletools.py). Containers, globals and calls are in pickle_objects.cpp.
#include "pickle/pickle_machine.h"

#include <cstdlib>
#include <cstring>

#include "pickle/opcodes.h"
#include "pickle/pickle_machine_state.h"

namespace safetensors::pickle {

bool PickleResult::has(PickleIssue issue) const {
  for (const PickleFinding& f : findings)
    if (f.issue == issue) return true;
  return false;
}

PickleResult run_pickle(std::span<const std::uint8_t> bytes, const PickleLimits& limits) {
  return detail::Machine(bytes, limits).run();
}

namespace detail {

PickleResult Machine::run() {
  std::uint64_t count = 0;
  while (!result_.complete) {
    op_offset_ = pos_;
    if (pos_ >= bytes_.size()) {
      fail(PickleIssue::Truncated);
      break;
    }
    if (++count > limits_.max_opcodes) {
      fail(PickleIssue::OpcodeLimit);
      break;
    }
    const std::uint8_t op = bytes_[pos_++];
    if (!step(op)) break;
  }
  result_.end = pos_;
  return std::move(result_);
}

bool Machine::fail(PickleIssue issue) {
  note(issue);
  return false;
}

std::optional<std::span<const std::uint8_t>> Machine::take(std::uint64_t n) {
  if (n > bytes_.size() - pos_) {
    fail(PickleIssue::Truncated);
    return std::nullopt;
  }
  auto out = bytes_.subspan(pos_, n);
  pos_ += n;
  return out;
}

std::optional<std::uint64_t> Machine::take_uint(int width) {
  auto raw = take(width);
  if (!raw) return std::nullopt;
  std::uint64_t v = 0;
  for (int i = width - 1; i >= 0; --i) v = (v << 8) | (*raw)[i];
  return v;
}

std::optional<std::string_view> Machine::take_line() {
  const auto* start = bytes_.data() + pos_;
  const void* nl = std::memchr(start, '\n', bytes_.size() - pos_);
  if (nl == nullptr) {
    fail(PickleIssue::Truncated);
    return std::nullopt;
  }
  const auto n = static_cast<std::uint64_t>(static_cast<const std::uint8_t*>(nl) - start);
  if (n > limits_.max_string) {
    fail(PickleIssue::StringLimit);
    return std::nullopt;
  }
  pos_ += n + 1;
  return std::string_view(reinterpret_cast<const char*>(start), n);
}

bool Machine::push_text(Kind kind, std::uint64_t length_width) {
  auto n = take_uint(static_cast<int>(length_width));
  if (!n) return false;
  if (*n > limits_.max_string) return fail(PickleIssue::StringLimit);
  auto raw = take(*n);
  if (!raw || !charge(*n)) return false;
  auto id = make(kind);
  if (!id) return false;
  result_.values[*id].text.assign(reinterpret_cast<const char*>(raw->data()), raw->size());
  return push(*id);
}

bool Machine::push_long_bytes(std::span<const std::uint8_t> le) {
  if (!charge(le.size())) return false;
  auto id = make(Kind::Int);
  if (!id) return false;
  Value& v = result_.values[*id];
  if (le.size() <= 8) {
    std::uint64_t u = 0;
    for (std::size_t i = le.size(); i-- > 0;) u = (u << 8) | le[i];
    if (!le.empty() && le.size() < 8 && (le.back() & 0x80)) u |= ~std::uint64_t{0} << (8 * le.size());
    v.integer = static_cast<std::int64_t>(u);
  } else {
    v.kind = Kind::BigInt;
    v.text.assign(reinterpret_cast<const char*>(le.data()), le.size());
  }
  return push(*id);
}

bool Machine::memo_get(std::uint64_t index) {
  auto it = memo_.find(index);
  if (it == memo_.end()) return fail(PickleIssue::MemoMissing);
  return push(it->second);
}

bool Machine::memo_put(std::uint64_t index) {
  if (stack_.empty()) return fail(PickleIssue::StackUnderflow);
  if (memo_.size() >= limits_.max_memo && !memo_.contains(index)) return fail(PickleIssue::MemoLimit);
  if (!charge(32)) return false;
  memo_[index] = stack_.back();
  return true;
}

bool Machine::memo_op(std::optional<std::uint64_t> index, bool put) {
  return index && (put ? memo_put(*index) : memo_get(*index));
}

bool Machine::step(std::uint8_t op) {
  switch (static_cast<Op>(op)) {
    case Op::Proto: {
      auto v = take_uint(1);
      if (!v) return false;
      result_.protocol = static_cast<int>(*v);
      return true;
    }
    case Op::Frame: return take_uint(8).has_value();
    case Op::Stop: {
      auto top = pop();
      if (!top) return false;
      result_.root = *top;
      result_.complete = true;
      return true;
    }
    case Op::None: {
      auto id = make(Kind::None);
      return id && push(*id);
    }
    case Op::NewTrue:
    case Op::NewFalse: {
      auto id = make(Kind::Bool);
      if (!id) return false;
      result_.values[*id].integer = static_cast<Op>(op) == Op::NewTrue;
      return push(*id);
    }
    case Op::BinInt:
    case Op::BinInt1:
    case Op::BinInt2: {
      const int width = op == static_cast<std::uint8_t>(Op::BinInt)    ? 4
                        : op == static_cast<std::uint8_t>(Op::BinInt1) ? 1
                                                                       : 2;
      auto v = take_uint(width);
      if (!v) return false;
      auto id = make(Kind::Int);
      if (!id) return false;
      result_.values[*id].integer = width == 4 ? static_cast<std::int32_t>(*v) : static_cast<std::int64_t>(*v);
      return push(*id);
    }
    case Op::Long1:
    case Op::Long4: {
      auto n = take_uint(static_cast<Op>(op) == Op::Long1 ? 1 : 4);
      if (!n) return false;
      if (*n > limits_.max_string) return fail(PickleIssue::StringLimit);
      auto raw = take(*n);
      return raw && push_long_bytes(*raw);
    }
    case Op::Int: return push_int_line(false);
    case Op::Long: return push_int_line(true);
    case Op::Float: return push_float_line();
    case Op::BinFloat: {
      auto raw = take(8);
      if (!raw) return false;
      std::uint64_t bits = 0;
      for (std::uint8_t b : *raw) bits = (bits << 8) | b;  // big-endian
      double v;
      std::memcpy(&v, &bits, sizeof v);
      auto id = make(Kind::Float);
      if (!id) return false;
      result_.values[*id].real = v;
      return push(*id);
    }
    case Op::String: return push_string_line(Kind::Bytes);
    case Op::Unicode: return push_string_line(Kind::Str);
    case Op::BinString: return push_text(Kind::Str, 4);
    case Op::ShortBinString: return push_text(Kind::Str, 1);
    case Op::BinUnicode: return push_text(Kind::Str, 4);
    case Op::ShortBinUnicode: return push_text(Kind::Str, 1);
    case Op::BinUnicode8: return push_text(Kind::Str, 8);
    case Op::BinBytes: return push_text(Kind::Bytes, 4);
    case Op::ShortBinBytes: return push_text(Kind::Bytes, 1);
    case Op::BinBytes8:
    case Op::ByteArray8: return push_text(Kind::Bytes, 8);
    case Op::Get: return memo_op(take_index_line(), false);
    case Op::BinGet: return memo_op(take_uint(1), false);
    case Op::LongBinGet: return memo_op(take_uint(4), false);
    case Op::Put: return memo_op(take_index_line(), true);
    case Op::BinPut: return memo_op(take_uint(1), true);
    case Op::LongBinPut: return memo_op(take_uint(4), true);
    case Op::Memoize: return memo_put(memo_.size());
    default: break;
  }
  return object_op(op);
}

}  // namespace detail
}  // namespace safetensors::pickle
