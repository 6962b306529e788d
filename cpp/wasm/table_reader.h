// Reader of the packed tables (layout in table_writer.h), for the card module, which takes the
// header table JS received from the core at open as its input (cpp/wasm/header_table.h).
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

namespace safetensors {

/// @brief Reads one packed table in sequence; every read says whether it succeeded.
class TableReader {
 public:
  /// @brief False when the table's counts do not match its size.
  bool open(std::span<const std::uint8_t> table);

  /// @brief The next number.
  bool number(double& out) {
    if (at_ == count_) return false;
    std::memcpy(&out, numbers_ + 8 * at_++, 8);  // unaligned where the table is
    return true;
  }

  /// @brief The next number, which must be a whole number from 0 to `max` (at most 2^64).
  bool count(double max, std::uint64_t& out) {
    double v = 0;
    if (!number(v) || !(v >= 0 && v <= max)) return false;
    out = static_cast<std::uint64_t>(v);
    return static_cast<double>(out) == v;  // whole
  }

  /// @brief The next string (its UTF-16 range in the text, as bytes of the UTF-8 text).
  bool string(std::string_view& out);

  /// @brief Numbers not read yet.
  std::size_t left() const { return count_ - at_; }

  /// @brief True once every number was read.
  bool done() const { return at_ == count_; }

 private:
  // The byte offset of UTF-16 position `units`, walking on from the last one found.
  bool seek(std::uint64_t units, std::size_t& byte);

  const std::uint8_t* numbers_ = nullptr;
  std::size_t count_ = 0, at_ = 0;
  std::string_view text_;
  bool ascii_ = false;            // then a UTF-16 position is its byte offset: no walk
  std::uint64_t units_seen_ = 0;  // the walk's position in UTF-16 units...
  std::size_t byte_seen_ = 0;     // ...and in bytes
};

}  // namespace safetensors
