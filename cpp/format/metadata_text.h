// How a metadata value is read as text: without the ASCII whitespace around it (writers and
// editors pad values, e.g. " True" or a hash followed by a newline). Shared by the analysis
// (embedded hashes) and the card's metadata conventions.
#pragma once

#include <string_view>

namespace safetensors {

/// @brief `s` without leading and trailing ASCII whitespace (space, tab, CR, LF).
inline std::string_view trim(std::string_view s) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace safetensors
