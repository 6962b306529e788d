// The text formats found under a .safetensors name: a Git LFS pointer (git-lfs/git-lfs
// docs/spec.md), a saved HTML page, JSON (an index, a diffusers model_index.json, a config).
// foreign_format.cpp tries them with the binary formats.
#pragma once

#include <optional>
#include <string>

#include "analysis/foreign_format.h"
#include "analysis/sniff_bytes.h"

namespace safetensors {

/// @brief The NotSafetensors sentence for a Git LFS pointer (its size and oid), or nullopt.
std::optional<std::string> lfs_pointer(sniff::Bytes b);

/// @brief An HTML page (with its title) or a JSON file (what kind), or nullopt.
std::optional<ForeignFile> text_file(sniff::Bytes b);

}  // namespace safetensors
