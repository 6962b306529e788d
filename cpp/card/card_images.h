// Cover images and thumbnails from metadata: ModelSpec's `modelspec.thumbnail` (a data
// URI) and the additional-networks editor's `ssmd_cover_images` (a JSON array of base64
// without a prefix). Only PNG, JPEG, WebP and GIF whose bytes start with that format's
// magic number pass; anything else, and anything over the size limits, is dropped.
#pragma once

#include <cstddef>
#include <vector>

#include "card/metadata_view.h"
#include "card/model_card.h"

namespace safetensors {

/// @brief Limits that keep a page responsive whatever the metadata holds.
inline constexpr std::size_t kMaxImageBytes = 4u << 20;   ///< decoded size of one image
inline constexpr std::size_t kMaxImagesBytes = 8u << 20;  ///< decoded size of all images
inline constexpr std::size_t kMaxImages = 8;

/// @brief The images that pass, in metadata order (thumbnail first).
std::vector<CardImage> card_images(const MetadataView& meta);

}  // namespace safetensors
