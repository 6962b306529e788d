// Tensor (or adapter module) names with their numbers taken out, for detection rules:
// "input_blocks.4.1.transformer_blocks.0.attn2.to_k.weight" and the same key of block 7
// both become "input_blocks.#.#.transformer_blocks.#.attn2.to_k.weight", so a rule written
// with any block's numbers finds every block, and a 20,000-tensor model is a few dozen keys.
#pragma once

#include <cstdint>
#include <span>
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
  std::string_view name;                 ///< the first name seen with this pattern
  std::span<const std::uint64_t> shape;  ///< that name's shape
};

/// @brief A fixed set of names that is cheap to ask about a name that is not in it: a bit
/// per signature (length, first and last 8 bytes) answers "no" for almost every name
/// without hashing it.
class NameSet {
 public:
  /// @brief The set of `names` (which must outlive it).
  explicit NameSet(const std::vector<std::string>& names);

  /// @brief Returned by find() for a name not in the set.
  static constexpr std::uint32_t kAbsent = UINT32_MAX;

  /// @brief The position of `name` in the names given (its first), or kAbsent.
  std::uint32_t find(std::string_view name) const;

  /// @brief Whether `name` is one of the names.
  bool contains(std::string_view name) const { return find(name) != kAbsent; }

  /// @brief The number of names given.
  std::size_t size() const { return size_; }

 private:
  static std::uint32_t signature_bit(std::string_view name);

  std::vector<std::uint64_t> bits_;  // kSignatureBits bits
  FlatStringIndex index_;
  std::size_t size_;
};

/// @brief Patterns of a set of names, each with its first name and shape. An exact index
/// skips the patterns: it finds names only as written (rules name the block numbers that
/// real files have, e.g. "layers.0."). It keeps only the names a caller said it will ask
/// for (one probe of a small table per name, instead of a rewrite and a hash insert), which
/// matters for the 20,000 names of a large model; any other name is found by a scan.
class KeyIndex {
 public:
  /// @brief A pattern index.
  KeyIndex() = default;

  /// @brief An exact index, fast for the names in `wanted` (which must outlive it);
  /// `expected`: about how many names will be added.
  KeyIndex(const NameSet& wanted, std::size_t expected) : wanted_(&wanted), found_(wanted.size(), NameSet::kAbsent) {
    all_.reserve(expected);
  }

  /// @brief Adds a name with its shape (both must outlive the index).
  void add(std::string_view name, std::span<const std::uint64_t> shape);

  /// @brief The key whose pattern equals key_pattern(`example`) (exact: the key `example`).
  const IndexedKey* find(std::string_view example) const;

  /// @brief Number of names added.
  std::size_t size() const { return count_; }

 private:
  const NameSet* wanted_ = nullptr;                   // set: an exact index
  std::unordered_map<std::string, IndexedKey> keys_;  // by pattern
  std::vector<std::uint32_t> found_;                  // exact: per wanted name, its index in all_ (or kAbsent)
  std::vector<IndexedKey> all_;                       // exact: every name, for lookups of names not wanted
  std::size_t count_ = 0;
  std::string scratch_;  // the pattern of the name being added
};

}  // namespace safetensors
