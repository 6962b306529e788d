// The error kinds of the reference safetensors loader (huggingface/safetensors,
// SafeTensorError), in the order its checks run. See docs/reference-rules.md.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace safetensors {

/// @brief Why the reference loader rejects a file; None when it accepts it.
enum class ReferenceError : std::uint8_t {
  None,                          ///< the reference loader accepts the file
  HeaderTooSmall,                ///< file shorter than the 8-byte length prefix
  HeaderTooLarge,                ///< claimed header length above 100,000,000 bytes
  InvalidHeaderLength,           ///< 8 + header length runs past the end of the file
  InvalidHeader,                 ///< header bytes are not valid UTF-8
  InvalidHeaderDeserialization,  ///< header is not JSON of the expected shape
  InvalidOffset,                 ///< a tensor does not start where the previous one ends
  ValidationOverflow,            ///< element or bit count does not fit in 64 bits
  MisalignedSlice,               ///< tensor bits are not a whole number of bytes
  TensorInvalidInfo,             ///< data_offsets length differs from shape x dtype size
  MetadataIncompleteBuffer,      ///< data section longer or shorter than the tensors
};

/// @brief Number of ReferenceError values, None included.
inline constexpr int kReferenceErrorCount = 11;

/// @brief The reference's own spelling of each kind, indexed by ReferenceError ("" for None).
inline constexpr std::array<std::string_view, kReferenceErrorCount> kReferenceErrorNames{
    "",
    "HeaderTooSmall",
    "HeaderTooLarge",
    "InvalidHeaderLength",
    "InvalidHeader",
    "InvalidHeaderDeserialization",
    "InvalidOffset",
    "ValidationOverflow",
    "MisalignedSlice",
    "TensorInvalidInfo",
    "MetadataIncompleteBuffer",
};

/// @brief The reference's own spelling of an error kind ("" for None).
constexpr std::string_view reference_error_name(ReferenceError e) {
  return kReferenceErrorNames[static_cast<std::size_t>(e)];
}

}  // namespace safetensors
