// The nodes of the module tree under construction, and how a level is found among its
// parent's children (see module_tree.cpp, which builds the tree from tensor names).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "tree/name_compare.h"

namespace safetensors::module_nodes {

// Children are found by a walk of the parent's list while it is short (most modules have a
// few), and through the hash table once it is long (a model's layers).
constexpr std::uint32_t kShortList = 8;

struct Node {
  std::uint32_t parent = 0;
  std::uint32_t start = 0;  // where this level's own part begins in `path`
  std::string_view path;    // into a tensor name: everything up to this level's end
  std::uint32_t first_child = 0, last_child = 0, next_sibling = 0, child_count = 0;
  std::uint32_t own = 0;  // tensors directly here
  std::uint32_t live_children = 0;
  std::uint32_t only_child = 0;  // valid when live_children == 1 after folding
  std::uint32_t tensors = 0;
  double parameters = 0;
  std::uint64_t bytes = 0;
  bool gone = false;  // folded into its parent or merged into its only child

  std::string_view part() const { return path.substr(start); }
};

// Children of parents with long lists, by (parent, own part): open addressing over node
// numbers, so that a slot is 8 bytes and the table stays in cache.
class ChildTable {
 public:
  explicit ChildTable(const std::vector<Node>& nodes) : nodes_(nodes), slots_(64) {}

  // The node for (parent, part), or `added` (stored for it) when there is none.
  std::uint32_t find_or_add(std::uint32_t parent, std::string_view part, std::uint32_t added) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    const std::uint32_t h = hash(parent, part);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t at = h & mask;; at = (at + 1) & mask) {
      Slot& slot = slots_[at];
      if (slot.node == 0) {
        slot = {added, h};
        ++size_;
        return added;
      }
      if (slot.hash == h && nodes_[slot.node].parent == parent && same_name(nodes_[slot.node].part(), part))
        return slot.node;
    }
  }

 private:
  struct Slot {
    std::uint32_t node = 0;  // 0: empty (the root is never a child)
    std::uint32_t hash = 0;
  };

  static std::uint32_t hash(std::uint32_t parent, std::string_view part) {
    std::uint64_t h = (parent + 1) * 0x9E3779B97F4A7C15ull;
    for (unsigned char c : part) h = (h ^ c) * 0x100000001B3ull;
    return static_cast<std::uint32_t>(h ^ (h >> 32));
  }

  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    const std::size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.node == 0) continue;
      std::size_t at = s.hash & mask;
      while (slots_[at].node != 0) at = (at + 1) & mask;
      slots_[at] = s;
    }
  }

  const std::vector<Node>& nodes_;
  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

class Builder {
 public:
  explicit Builder(std::size_t tensors) : table_(nodes) {
    nodes.reserve(tensors + tensors / 2 + 1);
    nodes.resize(1);
  }

  // The child of `parent` that ends at `end` of `name` (its own part starts at `start`),
  // created when new.
  std::uint32_t child(std::uint32_t parent, std::string_view name, std::size_t start, std::size_t end) {
    const std::string_view part = name.substr(start, end - start);
    if (nodes[parent].child_count < kShortList) {
      for (std::uint32_t c = nodes[parent].first_child; c != 0; c = nodes[c].next_sibling) {
        if (same_name(nodes[c].part(), part)) return c;
      }
      return add(parent, name, start, end);
    }
    if (nodes[parent].child_count == kShortList) {  // the list becomes long: index it
      for (std::uint32_t c = nodes[parent].first_child; c != 0; c = nodes[c].next_sibling)
        table_.find_or_add(parent, nodes[c].part(), c);
    }
    const auto next = static_cast<std::uint32_t>(nodes.size());
    const std::uint32_t c = table_.find_or_add(parent, part, next);
    return c == next ? add(parent, name, start, end) : c;
  }

  std::vector<Node> nodes;

 private:
  std::uint32_t add(std::uint32_t parent, std::string_view name, std::size_t start, std::size_t end) {
    const auto c = static_cast<std::uint32_t>(nodes.size());
    Node n;
    n.parent = parent;
    n.start = static_cast<std::uint32_t>(start);
    n.path = name.substr(0, end);
    nodes.push_back(n);
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

  ChildTable table_;
};

}  // namespace safetensors::module_nodes
