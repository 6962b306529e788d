// The values a pickle builds, as inert data: an arena of nodes addressed by index. Calls
// (REDUCE, NEWOBJ, NEWOBJ_EX, INST, OBJ) are records "this callable with these arguments";
// nothing is ever looked up or run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace safetensors::pickle {

/// @brief Index of a value in PickleResult::values.
using ValueId = std::uint32_t;

/// @brief No value (an unset state or a missing root).
inline constexpr ValueId kNoValue = 0xFFFFFFFFu;

/// @brief What a value is.
enum class Kind : std::uint8_t {
  None,       ///< Python None
  Bool,       ///< `integer` is 0 or 1
  Int,        ///< `integer` holds it
  BigInt,     ///< too big for int64: `text` holds the little-endian two's complement bytes
  Float,      ///< `real` holds it
  Str,        ///< `text` holds the UTF-8 (or, for protocol 0 strings, the raw) bytes
  Bytes,      ///< `text` holds the bytes (bytes, bytearray)
  Tuple,      ///< `items`
  List,       ///< `items`
  Dict,       ///< `items` holds key, value, key, value, ...
  Set,        ///< `items`
  FrozenSet,  ///< `items`
  Global,     ///< `text` is the module, `name` the name
  Call,       ///< `items` = {callable, args tuple[, kwargs]}; `extra` = items added later
  PersId,     ///< `items` = {the persistent id}
  Extension,  ///< EXT1/2/4: `integer` is the registry code
  Buffer,     ///< an out-of-band buffer (protocol 5)
};

/// @brief How a Call came to be.
enum class CallKind : std::uint8_t {
  Reduce,    ///< REDUCE: callable(*args)
  NewObj,    ///< NEWOBJ: cls.__new__(cls, *args)
  NewObjEx,  ///< NEWOBJ_EX: cls.__new__(cls, *args, **kwargs)
  Inst,      ///< INST: module.name(*args)
  Obj,       ///< OBJ: cls(*args)
};

/// @brief One value.
struct Value {
  Kind kind = Kind::None;            ///< what it is
  CallKind call = CallKind::Reduce;  ///< for Call
  std::int64_t integer = 0;          ///< Bool, Int, Extension
  double real = 0;                   ///< Float
  std::string text;                  ///< Str, Bytes, BigInt, Global's module
  std::string name;                  ///< Global's name
  std::vector<ValueId> items;        ///< children (see Kind)
  std::vector<ValueId> extra;        ///< a Call's later SETITEM pairs (or APPEND items when `appended`)
  bool appended = false;             ///< `extra` came from APPEND/APPENDS rather than SETITEM(S)
  ValueId state = kNoValue;          ///< a Call's BUILD state (the last one)
  std::uint64_t offset = 0;          ///< byte offset of the opcode that made it
};

/// @brief A global the pickle names (GLOBAL, INST, STACK_GLOBAL), once per occurrence.
struct GlobalRef {
  std::string module;        ///< as written (a non-string STACK_GLOBAL operand: its digits, or "?")
  std::string name;          ///< as written (likewise)
  std::uint64_t offset;      ///< the opcode's byte offset
  ValueId value = kNoValue;  ///< the Global value it made
  bool readable = true;      ///< false: STACK_GLOBAL of values that are not strings
};

}  // namespace safetensors::pickle
