// The hashes a file's metadata claims (of itself, of its data section, of the model it was
// trained from): read once, by the analysis, into the Report (and so into the header table JS
// gets at open), and by the card builder for `embeddedHashes`. This file is the one
// definition of which keys are claims and how their values are read.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "format/header.h"

namespace safetensors {

/// @brief What an embedded hash covers.
enum class HashCover : std::uint8_t {
  File,       ///< the whole file
  Data,       ///< bytes [8 + N, EOF): the data section
  AutoV1,     ///< AutoV1 (the 64 KiB at 1 MiB) of the file as first written
  BaseModel,  ///< another file: the base model or VAE it was trained with
};

/// @brief The name of `cover` as JS sees it (index.d.ts: 'file' | 'data' | 'autov1' | 'base-model').
std::string_view hash_cover_name(HashCover cover);

/// @brief A hash written into the metadata, normalised to lowercase hex.
struct EmbeddedHash {
  std::string key;    ///< the metadata key
  std::string value;  ///< lowercase hex, without "0x"
  HashCover covers = HashCover::Data;
};

/// @brief The hashes `metadata` claims, in a fixed key order (not the file's); values that are
/// not hex (after trimming whitespace and a "0x") or longer than 128 digits are not claims.
/// One pass over the metadata: cheap on open even for hostile metadata of 10^6 keys.
std::vector<EmbeddedHash> embedded_hashes(const Metadata& metadata);

}  // namespace safetensors
