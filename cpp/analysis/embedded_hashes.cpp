// The metadata keys that claim hashes (see embedded_hashes.h). Sources:
// - kohya-ss/sd-scripts, library/train_util.py (precalculate_safetensors_hashes,
//   addnet_hash_safetensors, addnet_hash_legacy) and train_network.py: sshs_model_hash is the
//   SHA-256 of the bytes after the header; sshs_legacy_hash the first 8 hex digits of the
//   SHA-256 of the 64 KiB at 1 MiB of the file before its hashes were added; ss_sd_model_hash,
//   ss_new_sd_model_hash, ss_vae_hash and ss_new_vae_hash name the base model and VAE.
// - Stability-AI/ModelSpec, README (modelspec.hash_sha256): the SHA-256 of the data section.
#include "analysis/embedded_hashes.h"

#include <algorithm>
#include <array>
#include <optional>

#include "format/metadata_text.h"

namespace safetensors {
namespace {

struct ClaimKey {
  std::string_view key;
  HashCover covers;
};

// In the order the claims are listed.
constexpr std::array<ClaimKey, 7> kClaimKeys{{
    {"sshs_model_hash", HashCover::Data},
    {"modelspec.hash_sha256", HashCover::Data},
    {"sshs_legacy_hash", HashCover::AutoV1},
    {"ss_new_sd_model_hash", HashCover::BaseModel},
    {"ss_sd_model_hash", HashCover::BaseModel},
    {"ss_new_vae_hash", HashCover::BaseModel},
    {"ss_vae_hash", HashCover::BaseModel},
}};

constexpr std::string_view kCoverNames[] = {"file", "data", "autov1", "base-model"};

// Longer values are not taken for hashes (SHA-512 has 128 hex digits).
constexpr std::size_t kMaxHexDigits = 128;

bool is_hex(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  });
}

// The claim a value makes, or nullopt when it is not hex.
std::optional<std::string> hex_of(std::string_view value) {
  std::string_view hex = trim(value);
  if (hex.starts_with("0x") || hex.starts_with("0X")) hex.remove_prefix(2);
  if (!is_hex(hex) || hex.size() > kMaxHexDigits) return std::nullopt;
  std::string out(hex);
  for (char& c : out) {
    if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace

std::string_view hash_cover_name(HashCover cover) { return kCoverNames[static_cast<int>(cover)]; }

std::vector<EmbeddedHash> embedded_hashes(const Metadata& metadata) {
  // Duplicate keys are resolved before (the last value wins), so each key is found once.
  std::array<const std::string*, kClaimKeys.size()> found{};
  for (const auto& [key, value] : metadata) {
    if (!key.starts_with("ss") && !key.starts_with("modelspec.")) continue;  // most keys stop here
    for (std::size_t i = 0; i < kClaimKeys.size(); ++i) {
      if (key == kClaimKeys[i].key) found[i] = &value;
    }
  }
  std::vector<EmbeddedHash> out;
  for (std::size_t i = 0; i < kClaimKeys.size(); ++i) {
    if (found[i] == nullptr) continue;
    if (auto hex = hex_of(*found[i]))
      out.push_back({std::string(kClaimKeys[i].key), std::move(*hex), kClaimKeys[i].covers});
  }
  return out;
}

}  // namespace safetensors
