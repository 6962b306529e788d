// Writer of the JS header table (see header_table.h for the sequence).
#include "wasm/header_table.h"

#include <string>

#include "card/card_json.h"

namespace safetensors {
namespace {

constexpr std::uint64_t kMaxSafeInteger = (std::uint64_t{1} << 53) - 1;

void write_optional(TableWriter& w, const std::optional<std::string>& s) {
  w.number(s ? 1 : 0);
  if (s) w.string(*s);
}

void write_tensor(TableWriter& w, const TensorEntry& t) {
  w.string(t.name);
  w.number(static_cast<double>(t.dtype));
  w.number(static_cast<double>(t.shape.size()));
  bool exact_needed = false;
  for (std::uint64_t d : t.shape) {
    w.number(static_cast<double>(d));
    exact_needed |= d > kMaxSafeInteger;
  }
  w.number(static_cast<double>(t.begin));
  w.number(static_cast<double>(t.end));
  w.number(exact_needed ? 1 : 0);
  if (exact_needed) {
    for (std::uint64_t d : t.shape) w.string(std::to_string(d));
  }
}

void write_card(TableWriter& w, const ModelCard& card) {
  std::string json;
  write_card_json(card, json);
  w.string(json);
  const ModuleTree& tree = card.modules;
  w.number(static_cast<double>(tree.nodes.size()));
  for (const ModuleNode& n : tree.nodes) {
    w.number(n.parent);
    w.string(n.name);
    w.number(static_cast<unsigned char>(n.separator));
    w.number(n.tensors);
    w.number(n.parameters);
    w.number(n.bytes);
  }
  for (std::uint32_t node : tree.node_of) w.number(node);
}

}  // namespace

void write_findings(TableWriter& w, std::span<const Finding> findings) {
  w.number(static_cast<double>(findings.size()));
  for (const Finding& f : findings) {
    w.number(static_cast<double>(f.code));
    w.string(f.message);
    write_optional(w, f.tensor);
  }
}

void encode_card_table(const ModelCard& card, std::vector<std::uint8_t>& out) {
  TableWriter w;
  write_card(w, card);
  w.finish(out);
}

void encode_header_table(const Report& report, const ModelCard* card, std::vector<std::uint8_t>& out) {
  TableWriter w;
  w.number(static_cast<double>(report.error));
  if (report.error != ReferenceError::None) {
    w.string(report.error_message);
    write_optional(w, report.error_tensor);
  }
  w.number(static_cast<double>(report.file_size));
  w.number(static_cast<double>(report.header_length));
  w.number(static_cast<double>(report.data_start));
  write_findings(w, report.findings);
  if (!report.has_metadata) {
    w.number(-1);
  } else {
    w.number(static_cast<double>(report.metadata.size()));
    for (const auto& [key, value] : report.metadata) {
      w.string(key);
      w.string(value);
    }
  }
  w.number(static_cast<double>(report.tensors.size()));
  for (const TensorEntry& t : report.tensors) write_tensor(w, t);
  w.number(card ? 1 : 0);
  if (card) write_card(w, *card);
  w.finish(out);
}

}  // namespace safetensors
