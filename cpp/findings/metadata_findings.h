// Findings on __metadata__: keys nobody documents, format values that loaders refuse,
// embedded blobs, and integer weights with no word on how to read them.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "findings/finding.h"
#include "format/header.h"

namespace safetensors {

/// @brief Metadata values longer than this are reported (LargeMetadataValue): 64 KiB.
inline constexpr std::size_t kLargeMetadataValue = 64 * 1024;

/// @brief Appends UnknownMetadataKey, UnusualFormat, LargeMetadataValue and
/// UnlabeledIntegerWeights findings.
void add_metadata_findings(std::span<const TensorEntry> tensors, const Metadata& metadata, std::vector<Finding>& out);

}  // namespace safetensors
