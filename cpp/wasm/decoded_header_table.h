// One file's header table held in the card module and decoded at most once: the card is built
// from it, and later (web/ asks on the first read of `card.modules`) the module tree, without
// reading the table a second time. JS writes the table into bytes(), asks for the card table,
// and keeps the object until it has the tree (or lets it go: web/card/model_card.js).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "wasm/header_table.h"

namespace safetensors {

/// @brief A header table's bytes and, once read, the tensors and metadata they hold.
class DecodedHeaderTable {
 public:
  /// @brief Room for a table of `size` bytes; bytes() is null when it could not be had.
  explicit DecodedHeaderTable(std::size_t size);
  DecodedHeaderTable(const DecodedHeaderTable&) = delete;  // the decoded views point into bytes_
  DecodedHeaderTable& operator=(const DecodedHeaderTable&) = delete;

  /// @brief Where the table is to be written (`size` bytes), before the first table below.
  std::uint8_t* bytes() { return bytes_.get(); }

  /// @brief Writes the card table (card_table.h) into `out`; false when the bytes are not a
  /// header table (then `out` is left as it was).
  bool card_table(std::vector<std::uint8_t>& out);

  /// @brief Writes the module tree table (card_table.h), names split as kohya's when `kohya`
  /// (the card table says); false as above.
  bool module_tree_table(bool kohya, std::vector<std::uint8_t>& out);

  /// @brief Writes the verdict of this table's file as an adapter of `base`'s (adapter_check.h)
  /// as JSON into `out`; false when either is not a header table.
  bool adapter_check_json(DecodedHeaderTable& base, std::string& out);

 private:
  enum class State : std::uint8_t {
    Unread,     ///< not read yet
    Decoded,    ///< `header_` holds the table's tensors and metadata
    NotATable,  ///< the bytes are not a header table
  };

  // The decoded table, read on the first call; null when it is not a header table.
  const TableHeader* header();

  std::unique_ptr<std::uint8_t[]> bytes_;
  std::size_t size_ = 0;
  State state_ = State::Unread;
  TableHeader header_;
};

}  // namespace safetensors
