// The module tree (see module_tree.h). Opening a 20,000-tensor model builds it, so each
// name costs little: levels shared with the previous name are reused without a lookup, only
// the rest of the name is scanned, and a new level is found among its parent's children by
// comparing the level's own part (a hash lookup only for parents with many children).
#include "tree/module_tree.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "adapter/adapter_parts.h"
#include "card/parameters.h"
#include "tree/module_nodes.h"

namespace safetensors {
namespace {

using module_nodes::Builder;
using module_nodes::Node;

// Levels deeper than this stay in the tensor's own name (names can be megabytes of dots).
constexpr std::size_t kMaxDepth = 32;

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The levels of a name: where each ends (the separator's position) and its node.
struct Levels {
  std::array<std::uint32_t, kMaxDepth> end{};
  std::array<std::uint32_t, kMaxDepth> node{};
  std::size_t count = 0;

  void add_separator(std::size_t at) { end[count++] = static_cast<std::uint32_t>(at); }
  bool full() const { return count == kMaxDepth; }
};

// Separators of a kohya adapter name: the end of its prefix, then after each all-digit '_'
// token before the first '.', then the '.'s.
void kohya_separators(std::string_view name, Levels& out) {
  out.count = 0;
  std::size_t from = 0;
  const std::size_t first_dot = std::min(name.find('.'), name.size());
  for (const KohyaPrefix& k : kKohyaPrefixes) {
    if (!name.starts_with(k.prefix) || k.prefix.size() >= first_dot) continue;
    out.add_separator(k.prefix.size() - 1);
    std::size_t token = k.prefix.size();
    for (std::size_t i = token; i < first_dot && !out.full(); ++i) {
      if (name[i] != '_') continue;
      if (all_digits(name.substr(token, i - token))) out.add_separator(i);
      token = i + 1;
    }
    from = first_dot;
    break;
  }
  for (std::size_t i = from; i < name.size() && !out.full(); ++i) {
    if (name[i] == '.') out.add_separator(i);
  }
}

}  // namespace

ModuleTree module_tree(std::span<const TensorView> tensors, bool kohya_names) {
  Builder builder(tensors.size());
  std::vector<Node>& nodes = builder.nodes;
  std::vector<std::uint32_t> node_of(tensors.size());
  Levels levels, next;  // of the previous name, of this one
  std::string_view prev;
  for (std::uint32_t i = 0; i < tensors.size(); ++i) {
    const std::string_view name = tensors[i].name;
    // Levels that end inside the prefix shared with the previous name are its levels.
    const std::size_t common = common_prefix(name, prev);
    std::size_t kept = 0;
    if (kohya_names) {
      kohya_separators(name, next);
      while (kept < std::min(levels.count, next.count) && next.end[kept] < common && next.end[kept] == levels.end[kept])
        ++kept;
      levels.end = next.end;
      levels.count = next.count;
    } else {
      while (kept < levels.count && levels.end[kept] < common) ++kept;
      levels.count = kept;
      // Every '.' before `common` was one of the previous name's separators.
      const char* const begin = name.data();
      const char* at =
          begin + (levels.full() ? name.size() : std::max<std::size_t>(common, kept ? levels.end[kept - 1] + 1 : 0));
      for (; at < begin + name.size(); ++at) {
        if (*at != '.') continue;
        levels.add_separator(static_cast<std::size_t>(at - begin));
        if (levels.full()) break;
      }
    }
    std::uint32_t parent = kept ? levels.node[kept - 1] : 0;
    for (std::size_t level = kept; level < levels.count; ++level) {
      parent = builder.child(parent, name, level ? levels.end[level - 1] + 1 : 0, levels.end[level]);
      levels.node[level] = parent;
    }
    Node& n = nodes[parent];
    ++n.own;
    ++n.tensors;
    n.parameters += element_count(tensors[i].shape);
    n.bytes += tensors[i].end - tensors[i].begin;
    node_of[i] = parent;
    prev = name;
  }

  // Children come after their parents: sum bottom-up, and fold modules holding one tensor.
  for (std::uint32_t i = static_cast<std::uint32_t>(nodes.size()) - 1; i > 0; --i) {
    Node& n = nodes[i];
    Node& p = nodes[n.parent];
    p.tensors += n.tensors;
    p.parameters += n.parameters;
    p.bytes += n.bytes;
    if (n.live_children == 0 && n.own == 1) {
      n.gone = true;
      --p.live_children;
      ++p.own;
    } else {
      p.only_child = i;
    }
  }
  // A node with a single child and no tensors of its own merges into that child, which
  // takes its place (and its parent): "model" + "diffusion_model" -> "model.diffusion_model".
  std::vector<std::uint32_t> parent_of(nodes.size());
  for (std::uint32_t i = 1; i < nodes.size(); ++i) parent_of[i] = nodes[i].parent;
  for (std::uint32_t i = 1; i < nodes.size(); ++i) {
    Node& n = nodes[i];
    if (n.gone || n.live_children != 1 || n.own != 0) continue;
    n.gone = true;
    parent_of[n.only_child] = parent_of[i];  // parents are visited first, so chains resolve
  }
  // Output: live nodes renumbered in creation order; folded tensors go to the live ancestor.
  ModuleTree tree;
  tree.nodes.reserve(nodes.size() - std::count_if(nodes.begin(), nodes.end(), [](const Node& n) { return n.gone; }));
  std::vector<std::uint32_t> out_index(nodes.size(), 0);
  tree.nodes.push_back(ModuleNode{0, "", 0, static_cast<double>(nodes[0].tensors), nodes[0].parameters,
                                  static_cast<double>(nodes[0].bytes)});
  for (std::uint32_t i = 1; i < nodes.size(); ++i) {
    const Node& n = nodes[i];
    if (n.gone) continue;  // a folded leaf lives on in its parent; a merged link in its child
    const std::uint32_t parent = parent_of[i];
    const std::string_view parent_path = parent == 0 ? std::string_view() : nodes[parent].path;
    const std::size_t start = parent_path.empty() ? 0 : parent_path.size() + 1;
    out_index[i] = static_cast<std::uint32_t>(tree.nodes.size());
    tree.nodes.push_back(ModuleNode{out_index[parent], std::string(n.path.substr(start)),
                                    parent == 0 ? '\0' : n.path[parent_path.size()], static_cast<double>(n.tensors),
                                    n.parameters, static_cast<double>(n.bytes)});
  }
  tree.node_of.resize(tensors.size());
  for (std::uint32_t t = 0; t < tensors.size(); ++t) {
    std::uint32_t node = node_of[t];
    while (node != 0 && nodes[node].gone) node = nodes[node].parent;  // folded leaves: one step
    tree.node_of[t] = out_index[node];
  }
  return tree;
}

std::string module_path(const ModuleTree& tree, std::uint32_t i) {
  if (i == 0) return {};
  const ModuleNode& n = tree.nodes[i];
  std::string parent = module_path(tree, n.parent);
  if (!parent.empty()) parent += n.separator;
  return parent + n.name;
}

}  // namespace safetensors
