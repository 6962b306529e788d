// Lookup of __metadata__ values by key, and the numbers and times read from them, for the card
// builders.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "format/header.h"
#include "format/metadata_text.h"

namespace safetensors {

/// @brief A read-only map over a report's metadata (which must outlive it).
class MetadataView {
 public:
  explicit MetadataView(const Metadata& metadata) : entries_(metadata) {
    map_.reserve(metadata.size());
    for (const auto& [key, value] : metadata) map_[key] = value;
  }

  /// @brief The value of `key`, if present.
  std::optional<std::string_view> get(std::string_view key) const {
    const auto it = map_.find(key);
    if (it == map_.end()) return std::nullopt;
    return it->second;
  }

  /// @brief The value of `key` when present and not empty after trimming spaces.
  std::optional<std::string_view> text(std::string_view key) const;

  /// @brief Every entry, in file order.
  const Metadata& entries() const { return entries_; }

 private:
  const Metadata& entries_;
  std::unordered_map<std::string_view, std::string_view> map_;
};

/// @brief A finite number written as a JSON number (kohya writes str(float)), else nullopt.
std::optional<double> parse_number(std::string_view s);

/// @brief A Unix time as ISO 8601 UTC to the second ("2023-04-05T21:01:47Z"), for years 0-9999.
std::string iso_date(double unix_seconds);

}  // namespace safetensors
