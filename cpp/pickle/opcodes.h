// The pickle opcodes of protocols 0-5, as Python's own Lib/pickle.py and Lib/pickletools.py
// define them (the byte each opcode is written as).
#pragma once

#include <cstdint>

namespace safetensors::pickle {

/// @brief One pickle opcode; the value is the byte in the stream.
enum class Op : std::uint8_t {
  Mark = '(',              ///< push a mark
  Stop = '.',              ///< end of the pickle
  Pop = '0',               ///< discard the top
  PopMark = '1',           ///< discard up to the mark
  Dup = '2',               ///< duplicate the top
  Float = 'F',             ///< float as a text line
  Int = 'I',               ///< int (or bool 00/01) as a text line
  BinInt = 'J',            ///< signed 4-byte int
  BinInt1 = 'K',           ///< 1-byte unsigned int
  Long = 'L',              ///< long as a text line
  BinInt2 = 'M',           ///< 2-byte unsigned int
  None = 'N',              ///< None
  PersId = 'P',            ///< persistent id as a text line
  BinPersId = 'Q',         ///< persistent id from the stack
  Reduce = 'R',            ///< call the callable with the argument tuple
  String = 'S',            ///< quoted str as a text line
  BinString = 'T',         ///< str with a 4-byte length
  ShortBinString = 'U',    ///< str with a 1-byte length
  Unicode = 'V',           ///< raw-unicode-escaped text line
  BinUnicode = 'X',        ///< UTF-8 with a 4-byte length
  Append = 'a',            ///< list.append
  Build = 'b',             ///< __setstate__ or __dict__ update
  Global = 'c',            ///< module and name as two text lines
  Dict = 'd',              ///< dict from the items above the mark
  EmptyDict = '}',         ///< {}
  Appends = 'e',           ///< list.extend with the items above the mark
  Get = 'g',               ///< memo read, index as a text line
  BinGet = 'h',            ///< memo read, 1-byte index
  Inst = 'i',              ///< module/name lines, arguments above the mark
  LongBinGet = 'j',        ///< memo read, 4-byte index
  List = 'l',              ///< list from the items above the mark
  EmptyList = ']',         ///< []
  Obj = 'o',               ///< class and arguments above the mark
  Put = 'p',               ///< memo write, index as a text line
  BinPut = 'q',            ///< memo write, 1-byte index
  LongBinPut = 'r',        ///< memo write, 4-byte index
  SetItem = 's',           ///< dict[key] = value
  Tuple = 't',             ///< tuple from the items above the mark
  EmptyTuple = ')',        ///< ()
  SetItems = 'u',          ///< dict update with the pairs above the mark
  BinFloat = 'G',          ///< big-endian 8-byte float
  Proto = 0x80,            ///< protocol version
  NewObj = 0x81,           ///< cls.__new__(cls, *args)
  Ext1 = 0x82,             ///< extension registry code, 1 byte
  Ext2 = 0x83,             ///< extension registry code, 2 bytes
  Ext4 = 0x84,             ///< extension registry code, 4 bytes
  Tuple1 = 0x85,           ///< 1-tuple from the top
  Tuple2 = 0x86,           ///< 2-tuple from the top
  Tuple3 = 0x87,           ///< 3-tuple from the top
  NewTrue = 0x88,          ///< True
  NewFalse = 0x89,         ///< False
  Long1 = 0x8a,            ///< little-endian two's complement int, 1-byte length
  Long4 = 0x8b,            ///< little-endian two's complement int, 4-byte length
  BinBytes = 'B',          ///< bytes with a 4-byte length
  ShortBinBytes = 'C',     ///< bytes with a 1-byte length
  ShortBinUnicode = 0x8c,  ///< UTF-8 with a 1-byte length
  BinUnicode8 = 0x8d,      ///< UTF-8 with an 8-byte length
  BinBytes8 = 0x8e,        ///< bytes with an 8-byte length
  EmptySet = 0x8f,         ///< set()
  AddItems = 0x90,         ///< set.update with the items above the mark
  FrozenSet = 0x91,        ///< frozenset from the items above the mark
  NewObjEx = 0x92,         ///< cls.__new__(cls, *args, **kwargs)
  StackGlobal = 0x93,      ///< module and name from the stack
  Memoize = 0x94,          ///< memo write at the next index
  Frame = 0x95,            ///< framing hint, 8-byte length
  ByteArray8 = 0x96,       ///< bytearray with an 8-byte length
  NextBuffer = 0x97,       ///< out-of-band buffer
  ReadOnlyBuffer = 0x98,   ///< make the top buffer read-only
};

}  // namespace safetensors::pickle
