// Writers of the JS card and module tree tables (see card_table.h for the sequences).
#include "wasm/card_table.h"

#include <string>

#include "card/card_json.h"
#include "wasm/table_writer.h"

namespace safetensors {

void encode_card_table(const ModelCard& card, std::vector<std::uint8_t>& out, std::size_t sized_from_shapes) {
  TableWriter w;
  std::string json;
  write_card_json(card, json);
  w.string(json);
  w.number(card.kohya_module_names ? 1 : 0);
  w.number(static_cast<double>(sized_from_shapes));
  w.finish(out);
}

void encode_module_tree_table(const ModuleTree& tree, std::vector<std::uint8_t>& out) {
  TableWriter w;
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
  w.finish(out);
}

}  // namespace safetensors
