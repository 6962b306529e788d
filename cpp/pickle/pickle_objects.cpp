// The pickle machine's values: the stack and marks, containers (tuple, list, dict, set,
// frozenset), globals, and the calls that stay records (REDUCE, NEWOBJ, NEWOBJ_EX, INST, OBJ,
// BUILD). Opcode semantics: Python's Lib/pickle.py. Every value is charged against the
// allocation limit.
#include <string>
#include <utility>

#include "pickle/opcodes.h"
#include "pickle/pickle_machine_state.h"

namespace safetensors::pickle::detail {

bool Machine::charge(std::uint64_t bytes) {
  allocated_ += bytes;
  if (allocated_ > limits_.max_allocation) return fail(PickleIssue::AllocationLimit);
  return true;
}

std::optional<ValueId> Machine::make(Kind kind) {
  if (!charge(sizeof(Value))) return std::nullopt;
  Value v;
  v.kind = kind;
  v.offset = op_offset_;
  result_.values.push_back(std::move(v));
  return static_cast<ValueId>(result_.values.size() - 1);
}

bool Machine::push(ValueId id) {
  if (stack_.size() + marks_.size() >= limits_.max_stack) return fail(PickleIssue::StackLimit);
  stack_.push_back(id);
  return true;
}

std::optional<ValueId> Machine::pop() {
  if (stack_.size() <= (marks_.empty() ? 0 : marks_.back())) {
    fail(stack_.empty() ? PickleIssue::StackUnderflow : PickleIssue::MarkMissing);
    return std::nullopt;
  }
  ValueId top = stack_.back();
  stack_.pop_back();
  return top;
}

std::optional<std::vector<ValueId>> Machine::pop_mark() {
  if (marks_.empty()) {
    fail(PickleIssue::MarkMissing);
    return std::nullopt;
  }
  const std::size_t mark = marks_.back();
  marks_.pop_back();
  std::vector<ValueId> items(stack_.begin() + static_cast<std::ptrdiff_t>(mark), stack_.end());
  stack_.resize(mark);
  return items;
}

bool Machine::push_collection(Kind kind, std::vector<ValueId> items) {
  if (kind == Kind::Dict && items.size() % 2 != 0) return fail(PickleIssue::BadOperand);
  if (!charge(items.size() * sizeof(ValueId))) return false;
  auto id = make(kind);
  if (!id) return false;
  result_.values[*id].items = std::move(items);
  return push(*id);
}

// APPEND(S) (pairs = false), SETITEM(S) (pairs = true) and ADDITEMS on the value below.
bool Machine::add_items(std::vector<ValueId> items, bool pairs) {
  if (stack_.empty() || stack_.size() <= (marks_.empty() ? 0 : marks_.back())) return fail(PickleIssue::StackUnderflow);
  if (pairs && items.size() % 2 != 0) return fail(PickleIssue::BadOperand);
  if (!charge(items.size() * sizeof(ValueId))) return false;
  Value& target = result_.values[stack_.back()];
  const bool fits = target.kind == Kind::Call ||
                    (pairs ? target.kind == Kind::Dict : target.kind == Kind::List || target.kind == Kind::Set);
  if (!fits) return fail(PickleIssue::BadOperand);
  auto& into = target.kind == Kind::Call ? target.extra : target.items;
  if (target.kind == Kind::Call) target.appended = !pairs;
  into.insert(into.end(), items.begin(), items.end());
  return true;
}

bool Machine::push_global(std::string module, std::string name, bool readable) {
  if (!charge(module.size() + name.size())) return false;
  auto id = make(Kind::Global);
  if (!id) return false;
  result_.globals.push_back({module, name, op_offset_, *id, readable});
  result_.values[*id].text = std::move(module);
  result_.values[*id].name = std::move(name);
  return push(*id);
}

bool Machine::push_call(CallKind kind, ValueId callable, ValueId args, ValueId kwargs) {
  auto id = make(Kind::Call);
  if (!id) return false;
  Value& v = result_.values[*id];
  v.call = kind;
  v.items = {callable, args};
  if (kwargs != kNoValue) v.items.push_back(kwargs);
  return push(*id);
}

bool Machine::object_op(std::uint8_t op) {
  switch (static_cast<Op>(op)) {
    case Op::Mark:
      if (stack_.size() + marks_.size() >= limits_.max_stack) return fail(PickleIssue::StackLimit);
      marks_.push_back(stack_.size());
      return true;
    case Op::Pop: return pop().has_value();
    case Op::PopMark: return pop_mark().has_value();
    case Op::Dup:
      if (stack_.empty()) return fail(PickleIssue::StackUnderflow);
      return push(stack_.back());
    case Op::EmptyTuple: return push_collection(Kind::Tuple, {});
    case Op::EmptyList: return push_collection(Kind::List, {});
    case Op::EmptyDict: return push_collection(Kind::Dict, {});
    case Op::EmptySet: return push_collection(Kind::Set, {});
    case Op::Tuple1:
    case Op::Tuple2:
    case Op::Tuple3: {
      std::vector<ValueId> items(op - static_cast<std::uint8_t>(Op::Tuple1) + 1);
      for (auto it = items.rbegin(); it != items.rend(); ++it) {
        auto v = pop();
        if (!v) return false;
        *it = *v;
      }
      return push_collection(Kind::Tuple, std::move(items));
    }
    case Op::Tuple:
    case Op::List:
    case Op::Dict:
    case Op::FrozenSet: {
      auto items = pop_mark();
      if (!items) return false;
      const Op o = static_cast<Op>(op);
      const Kind kind = o == Op::Tuple  ? Kind::Tuple
                        : o == Op::List ? Kind::List
                        : o == Op::Dict ? Kind::Dict
                                        : Kind::FrozenSet;
      return push_collection(kind, std::move(*items));
    }
    case Op::Append: {
      auto v = pop();
      return v && add_items({*v}, false);
    }
    case Op::SetItem: {
      auto value = pop();
      if (!value) return false;
      auto key = pop();
      return key && add_items({*key, *value}, true);
    }
    case Op::Appends:
    case Op::SetItems:
    case Op::AddItems: {
      auto items = pop_mark();
      return items && add_items(std::move(*items), static_cast<Op>(op) == Op::SetItems);
    }
    case Op::Global:
    case Op::Inst: {
      auto module = take_line();
      if (!module) return false;
      std::string m(*module);
      auto name = take_line();
      if (!name) return false;
      if (static_cast<Op>(op) == Op::Global) return push_global(std::move(m), std::string(*name));
      auto args = pop_mark();
      if (!args || !push_global(std::move(m), std::string(*name))) return false;
      const ValueId callable = stack_.back();
      stack_.pop_back();
      if (!push_collection(Kind::Tuple, std::move(*args))) return false;
      const ValueId tuple = stack_.back();
      stack_.pop_back();
      return push_call(CallKind::Inst, callable, tuple, kNoValue);
    }
    case Op::StackGlobal: {
      auto name = pop();
      if (!name) return false;
      auto module = pop();
      if (!module) return false;
      const Value& m = result_.values[*module];
      const Value& n = result_.values[*name];
      if (m.kind != Kind::Str || n.kind != Kind::Str) {  // picklescan reads such an operand as its text
        note(PickleIssue::NonStringGlobal);
        const auto text = [](const Value& v) {
          return v.kind == Kind::Str ? v.text : v.kind == Kind::Int ? std::to_string(v.integer) : std::string("?");
        };
        return push_global(text(m), text(n), false);
      }
      return push_global(m.text, n.text);
    }
    case Op::Obj: {
      auto items = pop_mark();
      if (!items) return false;
      if (items->empty()) return fail(PickleIssue::StackUnderflow);
      const ValueId cls = items->front();
      items->erase(items->begin());
      if (!push_collection(Kind::Tuple, std::move(*items))) return false;
      const ValueId tuple = stack_.back();
      stack_.pop_back();
      return push_call(CallKind::Obj, cls, tuple, kNoValue);
    }
    case Op::Reduce:
    case Op::NewObj: {
      auto args = pop();
      if (!args) return false;
      auto callable = pop();
      return callable && push_call(static_cast<Op>(op) == Op::Reduce ? CallKind::Reduce : CallKind::NewObj, *callable,
                                   *args, kNoValue);
    }
    case Op::NewObjEx: {
      auto kwargs = pop();
      if (!kwargs) return false;
      auto args = pop();
      if (!args) return false;
      auto cls = pop();
      return cls && push_call(CallKind::NewObjEx, *cls, *args, *kwargs);
    }
    case Op::Build: {
      auto state = pop();
      if (!state) return false;
      if (stack_.empty()) return fail(PickleIssue::StackUnderflow);
      Value& target = result_.values[stack_.back()];
      if (target.kind == Kind::Global) note(PickleIssue::GlobalMutated);  // sets attributes of a module or class
      target.state = *state;
      return true;
    }
    default: return reference_op(op);
  }
}

}  // namespace safetensors::pickle::detail
