// libFuzzer target: the whole header analysis (steps 1-7, findings, the model card, the
// JS tables and the card module's reading back of the header table, through the same
// DecodedHeaderTable object the card module holds) on arbitrary bytes with
// an arbitrary claimed file size.
//
// Input layout: byte 0 chooses the claimed size (even: exactly the bytes given;
// odd: the bytes given plus the next 8 bytes read as a u64), the rest is the file start.
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "analysis/analyze_header.h"
#include "card/build_card.h"
#include "card/card_json.h"
#include "format/utf8.h"
#include "simdjson.h"
#include "tree/module_tree.h"
#include "wasm/card_table.h"
#include "wasm/decoded_header_table.h"
#include "wasm/header_table.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::span<const std::uint8_t> input(data + 1, size - 1);
  std::uint64_t file_size = input.size();
  if ((data[0] & 1) != 0 && input.size() >= 8) {
    std::uint64_t extra = 0;
    std::memcpy(&extra, input.data(), 8);
    input = input.subspan(8);
    file_size = input.size() + (extra >> (data[0] >> 1 & 63));  // spread claimed sizes over all scales
    if (file_size < input.size()) file_size = UINT64_MAX;       // wrapped: the largest claim
  }
  const safetensors::Report report = safetensors::analyze_header(input, file_size);
  // Invariants that must hold for every input.
  if (report.outcome == safetensors::Outcome::OutOfMemory) return 0;
  if (report.error == safetensors::ReferenceError::None) {
    if (!report.error_message.empty() || report.error_tensor) __builtin_trap();
    std::uint64_t at = 0;
    for (const auto& t : report.tensors) {
      if (t.begin != at || t.end < t.begin) __builtin_trap();
      at = t.end;
    }
    if (report.data_start + at != file_size) __builtin_trap();
  } else if (report.error_message.empty() || report.error_message.size() > 2000) {
    __builtin_trap();
  }
  // Findings are never errors (the verdict is) but for NotSafetensors on a rejected file, and they
  // are aggregated per code, so their number and sizes stay small whatever the header.
  if (report.findings.size() > 32) __builtin_trap();
  std::uint32_t seen = 0;
  for (const auto& f : report.findings) {
    const bool foreign = f.code == safetensors::FindingCode::NotSafetensors;
    if (foreign != f.format.has_value() || (foreign && report.error == safetensors::ReferenceError::None))
      __builtin_trap();
    // Its message quotes the file's own bytes (names, titles): still UTF-8, as JS reads it.
    if (foreign &&
        safetensors::find_invalid_utf8({reinterpret_cast<const std::uint8_t*>(f.message.data()), f.message.size()}))
      __builtin_trap();
    if ((f.severity() == safetensors::Severity::Error && !foreign) || f.message.size() > 2000) __builtin_trap();
    const std::uint32_t bit = 1u << static_cast<int>(f.code);
    if ((seen & bit) != 0) __builtin_trap();  // one finding per code
    seen |= bit;
  }
  std::vector<std::uint8_t> table;
  if (report.error == safetensors::ReferenceError::None) {
    // The model card of every loadable header: JSON that parses, a tree that holds every tensor.
    const safetensors::ModelCard card = safetensors::build_card(report);
    std::string json;
    safetensors::write_card_json(card, json);
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    if (parser.parse(json).get(doc) != simdjson::SUCCESS) __builtin_trap();
    const safetensors::ModuleTree tree =
        safetensors::module_tree(safetensors::views_of(report.tensors), card.kohya_module_names);
    if (tree.node_of.size() != report.tensors.size() || tree.nodes.front().tensors != report.tensors.size())
      __builtin_trap();
    for (std::size_t i = 1; i < tree.nodes.size(); ++i) {
      if (tree.nodes[i].parent >= i) __builtin_trap();  // parents first
    }
    // The card module's path: the table read back gives the same card, byte for byte.
    safetensors::encode_header_table(report, table);
    safetensors::TableHeader back;
    if (!safetensors::decode_header_table(table, back)) __builtin_trap();
    std::vector<std::uint8_t> direct, via_table;
    safetensors::encode_card_table(card, direct);
    safetensors::encode_card_table(safetensors::build_card(back.tensors, back.metadata), via_table);
    if (direct != via_table) __builtin_trap();
    safetensors::encode_module_tree_table(tree, direct);
    safetensors::encode_module_tree_table(safetensors::module_tree(back.tensors, card.kohya_module_names), via_table);
    if (direct != via_table) __builtin_trap();
    // The card module's own object (what web/card/model_card.js drives): the table written
    // into it gives the same card table, then the same module tree table, from one decode.
    safetensors::DecodedHeaderTable held(table.size());
    if (held.bytes() == nullptr) return 0;
    std::memcpy(held.bytes(), table.data(), table.size());
    std::vector<std::uint8_t> held_card, held_tree;
    if (!held.card_table(held_card)) __builtin_trap();
    safetensors::encode_card_table(card, via_table);
    if (held_card != via_table) __builtin_trap();
    if (!held.module_tree_table(card.kohya_module_names, held_tree) || held_tree != direct) __builtin_trap();
  } else {
    safetensors::encode_header_table(report, table);
    safetensors::TableHeader back;
    // A rejected file's table may read back (a file cut short keeps its whole header's
    // tensors, for its card); when it does, with exactly the tensors the report listed.
    const bool read_back = safetensors::decode_header_table(table, back);
    if (read_back && back.tensors.size() != report.tensors.size()) __builtin_trap();
    for (std::size_t i = 0; read_back && i < back.tensors.size(); ++i) {
      if (back.tensors[i].name != report.tensors[i].name) __builtin_trap();
    }
  }
  // The table reader on arbitrary bytes: a verdict, never a crash; the held object refuses
  // what is not a table, and refuses it again on the next call.
  safetensors::TableHeader any;
  const bool is_table = safetensors::decode_header_table({data, size}, any);
  safetensors::DecodedHeaderTable arbitrary(size);
  if (arbitrary.bytes() == nullptr) return 0;
  std::memcpy(arbitrary.bytes(), data, size);
  std::vector<std::uint8_t> out;
  if (arbitrary.card_table(out) != is_table || arbitrary.module_tree_table(false, out) != is_table) __builtin_trap();
  return 0;
}
