// A header table decoded once for the card and its module tree (see decoded_header_table.h).
#include "wasm/decoded_header_table.h"

#include <new>

#include "adapter/adapter_check.h"
#include "card/build_card.h"
#include "tree/module_tree.h"
#include "wasm/card_table.h"

namespace safetensors {

DecodedHeaderTable::DecodedHeaderTable(std::size_t size)
    : bytes_(new (std::nothrow) std::uint8_t[size == 0 ? 1 : size]), size_(size) {}

const TableHeader* DecodedHeaderTable::header() {
  if (state_ == State::Unread) {
    const bool read = bytes_ && decode_header_table({bytes_.get(), size_}, header_);
    state_ = read ? State::Decoded : State::NotATable;
  }
  return state_ == State::Decoded ? &header_ : nullptr;
}

bool DecodedHeaderTable::card_table(std::vector<std::uint8_t>& out) {
  const TableHeader* h = header();
  if (h == nullptr) return false;
  encode_card_table(build_card(h->tensors, h->metadata), out, h->sized_from_shapes);
  return true;
}

bool DecodedHeaderTable::module_tree_table(bool kohya, std::vector<std::uint8_t>& out) {
  const TableHeader* h = header();
  if (h == nullptr) return false;
  encode_module_tree_table(module_tree(h->tensors, kohya), out);
  return true;
}

bool DecodedHeaderTable::adapter_check_json(DecodedHeaderTable& base, std::string& out) {
  const TableHeader* a = header();
  const TableHeader* b = base.header();
  if (a == nullptr || b == nullptr) return false;
  write_adapter_check_json(check_adapter(a->tensors, a->metadata, b->tensors), out);
  return true;
}

}  // namespace safetensors
