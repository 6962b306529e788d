// Findings: what we tell a person about a file beyond the reference verdict. Every code,
// its name and its severity live in the table below; JavaScript receives the table from
// the wasm (web/core/tables.js), and a test checks that the README and index.d.ts list
// every code. Findings never change the verdict.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/foreign_format.h"

namespace safetensors {

/// @brief How much a finding matters.
enum class Severity : std::uint8_t {
  Error,    ///< the reference loader rejects the file (or a sharded model: cannot load it whole; or a
            ///< rejected file is not safetensors at all: NotSafetensors)
  Warning,  ///< loadable, but likely wrong or unsafe to rely on
  Info,     ///< loadable and fine, worth knowing
};

/// @brief Number of Severity values.
inline constexpr int kSeverityCount = 3;

/// @brief Lowercase names of the severities, indexed by Severity.
inline constexpr std::array<std::string_view, kSeverityCount> kSeverityNames{"error", "warning", "info"};

/// @brief The codes of our findings (a reference error kind is the other kind of code).
enum class FindingCode : std::uint8_t {
  NotSafetensors,           ///< a rejected file is another format (analysis/foreign_format.h)
  DuplicateTensorName,      ///< a tensor name appears twice; the reference keeps the last
  DuplicateMetadataKey,     ///< a __metadata__ key appears twice; the reference keeps the last
  ArrayTensorEntry,         ///< entries written as [dtype, shape, offsets]
  MapDtype,                 ///< dtypes written as {"F16": null}
  UnknownTensorField,       ///< entry fields besides dtype, shape and data_offsets
  LeadingWhitespace,        ///< whitespace before the header's '{'
  OversizedHeader,          ///< more than kOversizedPadding bytes of padding after the JSON
  HeaderNotPadded,          ///< the data does not start at a multiple of 8
  MisalignedTensor,         ///< a tensor starts off its element size's alignment
  HugeTensor,               ///< tensors over 2 GiB
  EmptyTensor,              ///< tensors with zero elements
  ManyScalarTensors,        ///< many shape-[] tensors
  UnlabeledIntegerWeights,  ///< U8/I8 weights with no word on their quantization
  UnknownMetadataKey,       ///< metadata keys outside the known families
  UnusualFormat,            ///< a `format` value transformers refuses
  LargeMetadataValue,       ///< metadata values over 64 KiB
  NonFiniteValues,          ///< the data scan found NaN or infinities
  AllZeroTensor,            ///< the data scan found a tensor of zeros
  EmbeddedHashMismatch,     ///< a hash in the metadata differs from the file's (hashing, in JS)
  // Sharded checkpoints (an index.json and its shards), found in JS (web/sharded/shard_checks.js):
  IndexTensorMissing,      ///< the index maps a tensor to a shard that does not hold it
  UnindexedTensor,         ///< a shard holds a tensor the index does not name
  TensorInSeveralShards,   ///< two shards hold a tensor of the same name
  ShardMissing,            ///< a shard the index lists could not be read or was not picked
  ShardNotLoadable,        ///< the reference loader rejects a shard
  UnsafeShardName,         ///< a shard name leaves the index's folder (never read)
  IndexTotalSizeMismatch,  ///< metadata.total_size is not the tensors' summed bytes
  ShardNotReferenced,      ///< a picked .safetensors file no index entry names
  ComponentMissing,        ///< a diffusers pipeline component that has no safetensors weights
  // Found in JS (web/file/validate.js):
  HttpError,  ///< an http(s) source answered an error status: nothing was read
  // Found in JS (web/sharded/model_config.js):
  ConfigUnreadable,  ///< the config.json beside a model's weights cannot be read or parsed
};

/// @brief A code's stable name and its severity.
struct FindingCodeInfo {
  std::string_view name;  ///< the stable identifier JavaScript sees as `code`
  Severity severity;      ///< the same for every finding of the code
};

/// @brief Number of FindingCode values.
inline constexpr int kFindingCodeCount = 31;

/// @brief The table, indexed by FindingCode.
inline constexpr std::array<FindingCodeInfo, kFindingCodeCount> kFindingCodes{{
    {"NotSafetensors", Severity::Error},
    {"DuplicateTensorName", Severity::Warning},
    {"DuplicateMetadataKey", Severity::Warning},
    {"ArrayTensorEntry", Severity::Warning},
    {"MapDtype", Severity::Warning},
    {"UnknownTensorField", Severity::Info},
    {"LeadingWhitespace", Severity::Info},
    {"OversizedHeader", Severity::Info},
    {"HeaderNotPadded", Severity::Info},
    {"MisalignedTensor", Severity::Info},
    {"HugeTensor", Severity::Info},
    {"EmptyTensor", Severity::Info},
    {"ManyScalarTensors", Severity::Info},
    {"UnlabeledIntegerWeights", Severity::Warning},
    {"UnknownMetadataKey", Severity::Info},
    {"UnusualFormat", Severity::Warning},
    {"LargeMetadataValue", Severity::Info},
    {"NonFiniteValues", Severity::Warning},
    {"AllZeroTensor", Severity::Info},
    {"EmbeddedHashMismatch", Severity::Warning},
    {"IndexTensorMissing", Severity::Error},
    {"UnindexedTensor", Severity::Warning},
    {"TensorInSeveralShards", Severity::Error},
    {"ShardMissing", Severity::Error},
    {"ShardNotLoadable", Severity::Error},
    {"UnsafeShardName", Severity::Error},
    {"IndexTotalSizeMismatch", Severity::Warning},
    {"ShardNotReferenced", Severity::Info},
    {"ComponentMissing", Severity::Error},
    {"HttpError", Severity::Error},
    {"ConfigUnreadable", Severity::Info},
}};

/// @brief The row of `code`.
constexpr const FindingCodeInfo& finding_code_info(FindingCode code) {
  return kFindingCodes[static_cast<std::size_t>(code)];
}

/// @brief One observation about the file, for a person.
struct Finding {
  FindingCode code;                          ///< what kind of observation (name and severity in kFindingCodes)
  std::string message;                       ///< a sentence saying what it means and what to do
  std::optional<std::string> tensor = {};    ///< the tensor concerned, if one is
  std::optional<ForeignFormat> format = {};  ///< NotSafetensors: what the file is instead

  /// @brief The code's severity.
  Severity severity() const { return finding_code_info(code).severity; }
};

}  // namespace safetensors
