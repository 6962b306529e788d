// The module tree (see module_tree.h).
#include "card/module_tree.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "card/adapter_parts.h"
#include "card/parameters.h"

namespace safetensors {
namespace {

struct Node {
  std::string_view path;
  int parent = -1;
  std::vector<int> children;
  std::vector<std::uint32_t> own;
  double tensors = 0, parameters = 0, bytes = 0;
  std::size_t live_children = 0;  // children not folded away
  bool gone = false;              // folded into its parent
};

// Levels deeper than this stay in the tensor's own name (names can be megabytes of dots).
constexpr std::size_t kMaxDepth = 32;

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
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
      for (std::size_t i = token; i < first_dot; ++i) {
        if (name[i] != '_') continue;
        if (all_digits(name.substr(token, i - token))) out.push_back(i);
        token = i + 1;
      }
      from = first_dot;
      break;
    }
  }
  for (std::size_t i = from; i < name.size() && out.size() < kMaxDepth; ++i) {
    if (name[i] == '.') out.push_back(i);
  }
  if (out.size() > kMaxDepth) out.resize(kMaxDepth);
}

class TreeBuilder {
 public:
  TreeBuilder() { nodes_.push_back(Node{}); }

  void add(std::uint32_t index, const TensorEntry& t, std::span<const std::size_t> seps) {
    const int node = seps.empty() ? 0 : ensure(t.name, seps, seps.size() - 1);
    nodes_[node].own.push_back(index);
    nodes_[node].tensors += 1;
    nodes_[node].parameters += element_count(t.shape);
    nodes_[node].bytes += static_cast<double>(t.end - t.begin);
  }

  ModuleNode finish() {
    // Children were created after their parents: sum bottom-up, fold single-tensor leaves.
    for (int i = static_cast<int>(nodes_.size()) - 1; i > 0; --i) {
      Node& n = nodes_[i];
      Node& p = nodes_[n.parent];
      p.tensors += n.tensors;
      p.parameters += n.parameters;
      p.bytes += n.bytes;
      if (n.live_children == 0 && n.own.size() == 1) {
        p.own.push_back(n.own.front());
        n.gone = true;
        --p.live_children;
      }
    }
    return emit(0, std::string_view());
  }

 private:
  // The node for the first `level` + 1 levels' path, created with its parents as needed.
  int ensure(std::string_view name, std::span<const std::size_t> seps, std::size_t level) {
    const std::string_view path = name.substr(0, seps[level]);
    if (path == last_path_) return last_node_;
    auto it = index_.find(path);
    int node;
    if (it != index_.end()) {
      node = it->second;
    } else {
      const int parent = level == 0 ? 0 : ensure(name, seps, level - 1);
      node = static_cast<int>(nodes_.size());
      nodes_.push_back(Node{path, parent, {}, {}, 0, 0, 0, 0, false});
      nodes_[parent].children.push_back(node);
      ++nodes_[parent].live_children;
      index_.emplace(path, node);
    }
    last_path_ = path;
    last_node_ = node;
    return node;
  }

  ModuleNode emit(int i, std::string_view parent_path) {
    const Node* n = &nodes_[i];
    ModuleNode out;
    out.tensors = n->tensors;
    out.parameters = n->parameters;
    out.bytes = n->bytes;
    // A chain of single children with no tensors of their own is one node.
    std::vector<int> live;
    for (;;) {
      live.clear();
      for (int c : n->children) {
        if (!nodes_[c].gone) live.push_back(c);
      }
      if (i == 0 || live.size() != 1 || !n->own.empty()) break;
      i = live.front();
      n = &nodes_[i];
    }
    out.path = std::string(n->path);
    out.name = i == 0 ? std::string() : std::string(n->path.substr(parent_path.empty() ? 0 : parent_path.size() + 1));
    out.own = n->own;
    std::sort(out.own.begin(), out.own.end());
    for (int c : live) out.children.push_back(emit(c, n->path));
    return out;
  }

  std::vector<Node> nodes_;
  std::unordered_map<std::string_view, int> index_;
  std::string_view last_path_;
  int last_node_ = 0;
};

}  // namespace

ModuleNode module_tree(std::span<const TensorEntry> tensors, bool kohya_names) {
  TreeBuilder tree;
  std::vector<std::size_t> seps;
  for (std::uint32_t i = 0; i < tensors.size(); ++i) {
    separators(tensors[i].name, kohya_names, seps);
    tree.add(i, tensors[i], seps);
  }
  return tree.finish();
}

}  // namespace safetensors
