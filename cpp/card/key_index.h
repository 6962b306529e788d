// Tensor (or adapter module) names with their numbers taken out, for detection rules:
// "input_blocks.4.1.transformer_blocks.0.attn2.to_k.weight" and the same key of block 7
// both become "input_blocks.#.#.transformer_blocks.#.attn2.to_k.weight", so a rule written
// with any block's numbers finds every block, and a 20,000-tensor model is a few dozen keys.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "format/flat_string_index.h"

namespace safetensors {

/// @brief `name` with every token that is all digits replaced by '#'. Tokens are separated
/// by '.', '_' and ':'.
std::string key_pattern(std::string_view name);

/// @brief key_pattern() into `out` (cleared first; its capacity is reused).
void key_pattern(std::string_view name, std::string& out);

/// @brief One key: the first name that has the pattern, and its shape.
struct IndexedKey {
  std::string_view name;                    ///< the first name seen with this pattern
  const std::vector<std::uint64_t>* shape;  ///< that name's shape (never null)
};

/// @brief Patterns of a set of names, each with its first name and shape. An exact index
/// skips the patterns: it finds names only as written (rules name the block numbers that
/// real files have, e.g. "layers.0."), at the cost of one hash per name instead of a
/// rewrite and a hash, which matters for the 20,000 names of a large model.
class KeyIndex {
 public:
  /// @brief `exact`: match names as written, not by pattern; `expected`: about how many names.
  explicit KeyIndex(bool exact = false, std::size_t expected = 0) : exact_(exact), names_(exact ? expected : 0) {}

  /// @brief Adds a name with its shape (both must outlive the index).
  void add(std::string_view name, const std::vector<std::uint64_t>& shape);

  /// @brief The key whose pattern equals key_pattern(`example`), if any.
  const IndexedKey* find(std::string_view example) const;

  /// @brief Number of names added.
  std::size_t size() const { return count_; }

 private:
  bool exact_;
  std::unordered_map<std::string, IndexedKey> keys_;  // by pattern
  FlatStringIndex names_;                             // exact: name -> index into exact_keys_
  std::vector<IndexedKey> exact_keys_;
  std::size_t count_ = 0;
  std::string scratch_;  // the pattern of the name being added
};

}  // namespace safetensors
