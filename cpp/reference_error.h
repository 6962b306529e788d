// The error kinds of the reference safetensors loader (huggingface/safetensors,
// SafeTensorError), in the order its checks run. See ../shared/REFERENCE-RULES.md.
#pragma once

#include <string_view>

namespace safetensors {

/// @brief Why the reference loader rejects a file; None when it accepts it.
enum class ReferenceError {
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

/// @brief The reference's own spelling of an error kind ("" for None).
constexpr std::string_view reference_error_name(ReferenceError e) {
  switch (e) {
    case ReferenceError::None: return "";
    case ReferenceError::HeaderTooSmall: return "HeaderTooSmall";
    case ReferenceError::HeaderTooLarge: return "HeaderTooLarge";
    case ReferenceError::InvalidHeaderLength: return "InvalidHeaderLength";
    case ReferenceError::InvalidHeader: return "InvalidHeader";
    case ReferenceError::InvalidHeaderDeserialization: return "InvalidHeaderDeserialization";
    case ReferenceError::InvalidOffset: return "InvalidOffset";
    case ReferenceError::ValidationOverflow: return "ValidationOverflow";
    case ReferenceError::MisalignedSlice: return "MisalignedSlice";
    case ReferenceError::TensorInvalidInfo: return "TensorInvalidInfo";
    case ReferenceError::MetadataIncompleteBuffer: return "MetadataIncompleteBuffer";
  }
  return "";
}

}  // namespace safetensors
