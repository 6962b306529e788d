// Which Civitai model a file is, from its metadata alone (no hashing, no network): AIR strings
// (Civitai's AI Resource Identifier, https://developer.civitai.com/site/guide/air:
// urn:air:{ecosystem}:{type}:{source}:{id}[@{version}][+{fileId}][.{format}]) in any metadata
// value, civitai.com model and version URLs, and the data section's SHA-256 that kohya
// (sshs_model_hash) and ModelSpec (modelspec.hash_sha256) write, whose first 12 hex digits
// (AutoV3) Civitai's by-hash lookup accepts (GET /api/v1/model-versions/by-hash/{hash}).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "analysis/embedded_hashes.h"
#include "format/header.h"

namespace safetensors {

/// @brief What the metadata says about the file's Civitai model.
struct CivitaiRef {
  std::optional<std::string> air;          ///< the first AIR whose source is civitai, as written
  std::optional<double> model_id;          ///< from the AIR or a civitai.com URL
  std::optional<double> version_id;        ///< the AIR's version, or a URL's modelVersionId / download id
  std::optional<std::string> page_url;     ///< https://civitai.com/models/{id}[?modelVersionId={v}]
  std::optional<std::string> by_hash_url;  ///< .../api/v1/model-versions/by-hash/{AutoV3} from a claimed data hash
};

/// @brief A parsed AIR (only its parts the card uses).
struct Air {
  std::string text;  ///< the whole AIR, from "urn:air:"
  std::string source;
  std::string id;
  std::string version;  ///< empty when none
};

/// @brief The AIR starting at `text` (which begins with "urn:air:", any case), or nullopt
/// when what follows does not have at least a source and an id.
std::optional<Air> parse_air(std::string_view text);

/// @brief The Civitai reference of `metadata` (entries in file order; the first AIR or URL wins),
/// or nullopt when it names none. `hashes` are the claims embedded_hashes() read.
std::optional<CivitaiRef> civitai_ref(const Metadata& metadata, std::span<const EmbeddedHash> hashes);

}  // namespace safetensors
