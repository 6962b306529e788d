// The module tree (see module_tree.h). Opening a 20,000-tensor model builds it, so it costs
// about one hash lookup per tensor: levels shared with the previous name are reused.
#include "card/module_tree.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "card/adapter_parts.h"
#include "card/parameters.h"
#include "format/flat_string_index.h"

namespace safetensors {
namespace {

// Levels deeper than this stay in the tensor's own name (names can be megabytes of dots).
constexpr std::size_t kMaxDepth = 32;

// Children are found by a walk of the parent's list while it is short (most modules have a
// few), and through the hash index once it is long (a model's layers).
constexpr std::uint32_t kShortList = 8;

struct Node {
  std::uint32_t parent = 0;
  std::string_view path;  // into a tensor name
  std::uint32_t first_child = 0, last_child = 0, next_sibling = 0, child_count = 0;
  std::uint32_t own = 0;  // tensors directly here
  std::uint32_t live_children = 0;
  std::uint32_t only_child = 0;  // valid when live_children == 1 after folding
  double tensors = 0, parameters = 0, bytes = 0;
  bool gone = false;  // folded into its parent or merged into its only child
};

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Where `name` splits into levels (positions of the separators).
void separators(std::string_view name, bool kohya_names, std::vector<std::size_t>& out) {
  out.clear();
  std::size_t from = 0;
  if (kohya_names) {
    const std::size_t first_dot = std::min(name.find('.'), name.size());
    for (const KohyaPrefix& k : kKohyaPrefixes) {
      if (!name.starts_with(k.prefix) || k.prefix.size() >= first_dot) continue;
      out.push_back(k.prefix.size() - 1);
      // After the prefix: cut after each all-digit '_' token.
      std::size_t token = k.prefix.size();
      for (std::size_t i = token; i < first_dot && out.size() < kMaxDepth; ++i) {
        if (name[i] != '_') continue;
        if (all_digits(name.substr(token, i - token))) out.push_back(i);
        token = i + 1;
      }
      from = first_dot;
      break;
    }
  }
  for (std::size_t i = name.find('.', from); i != std::string_view::npos && out.size() < kMaxDepth;
       i = name.find('.', i + 1)) {
    out.push_back(i);
  }
}

class Builder {
 public:
  explicit Builder(std::size_t tensors) : index_(tensors / 4) {
    nodes.reserve(tensors + 1);
    nodes.resize(1);
  }

  // The child of `parent` whose path is `path`, created when new.
  std::uint32_t child(std::uint32_t parent, std::string_view path) {
    Node& p = nodes[parent];
    if (p.child_count <= kShortList) {
      for (std::uint32_t c = p.first_child; c != 0; c = nodes[c].next_sibling) {
        if (nodes[c].path == path) return c;
      }
      const std::uint32_t c = add(parent, path);
      if (nodes[parent].child_count == kShortList + 1) {
        for (std::uint32_t k = nodes[parent].first_child; k != 0; k = nodes[k].next_sibling)
          index_.find_or_add(nodes[k].path, k);
      }
      return c;
    }
    const auto next = static_cast<std::uint32_t>(nodes.size());
    const std::uint32_t c = index_.find_or_add(path, next);
    return c == next ? add(parent, path) : c;
  }

  std::vector<Node> nodes;

 private:
  std::uint32_t add(std::uint32_t parent, std::string_view path) {
    const auto c = static_cast<std::uint32_t>(nodes.size());
    nodes.push_back(Node{parent, path});
    Node& p = nodes[parent];
    if (p.first_child == 0) {
      p.first_child = c;
    } else {
      nodes[p.last_child].next_sibling = c;
    }
    p.last_child = c;
    ++p.child_count;
    ++p.live_children;
    return c;
  }

  FlatStringIndex index_;
};

}  // namespace

ModuleTree module_tree(std::span<const TensorEntry> tensors, bool kohya_names) {
  Builder builder(tensors.size());
  std::vector<Node>& nodes = builder.nodes;
  std::vector<std::uint32_t> node_of(tensors.size());
  std::vector<std::size_t> seps;
  std::vector<std::uint32_t> levels, prev_levels;  // node of each level, this and the previous name
  std::vector<std::size_t> prev_seps;
  std::string_view prev;
  for (std::uint32_t i = 0; i < tensors.size(); ++i) {
    const std::string_view name = tensors[i].name;
    separators(name, kohya_names, seps);
    // Levels inside the prefix shared with the previous name are the previous name's.
    const std::size_t common = static_cast<std::size_t>(
        std::mismatch(name.begin(), name.end(), prev.begin(), prev.end()).first - name.begin());
    levels.clear();
    std::uint32_t parent = 0;
    for (std::size_t level = 0; level < seps.size(); ++level) {
      std::uint32_t node;
      if (level < prev_levels.size() && seps[level] < common && prev_seps[level] == seps[level]) {
        node = prev_levels[level];
      } else {
        node = builder.child(parent, name.substr(0, seps[level]));
      }
      levels.push_back(node);
      parent = node;
    }
    Node& n = nodes[parent];
    ++n.own;
    n.tensors += 1;
    n.parameters += element_count(tensors[i].shape);
    n.bytes += static_cast<double>(tensors[i].end - tensors[i].begin);
    node_of[i] = parent;
    std::swap(levels, prev_levels);
    std::swap(seps, prev_seps);
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
  std::vector<std::uint32_t> out_index(nodes.size(), 0);
  tree.nodes.push_back(ModuleNode{0, "", 0, nodes[0].tensors, nodes[0].parameters, nodes[0].bytes});
  for (std::uint32_t i = 1; i < nodes.size(); ++i) {
    const Node& n = nodes[i];
    if (n.gone) continue;  // a folded leaf lives on in its parent; a merged link in its child
    const std::uint32_t parent = parent_of[i];
    const std::string_view parent_path = parent == 0 ? std::string_view() : nodes[parent].path;
    const std::size_t start = parent_path.empty() ? 0 : parent_path.size() + 1;
    out_index[i] = static_cast<std::uint32_t>(tree.nodes.size());
    tree.nodes.push_back(ModuleNode{out_index[parent], std::string(n.path.substr(start)),
                                    parent == 0 ? '\0' : n.path[parent_path.size()], n.tensors, n.parameters, n.bytes});
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
