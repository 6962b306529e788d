// The result of analysing a file's header: the reference verdict with its message,
// our findings, and the tensors and metadata the reference loader would see.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/embedded_hashes.h"
#include "findings/finding.h"
#include "format/header.h"
#include "format/reference_error.h"

namespace safetensors {

/// @brief Whether the analysis reached a verdict.
enum class Outcome : std::uint8_t {
  Verdict,      ///< `error` is the reference verdict (None: the file is loadable)
  OutOfMemory,  ///< the header could not be parsed for lack of memory: no verdict at all
};

/// @brief Everything the header tells.
struct Report {
  Outcome outcome = Outcome::Verdict;           ///< whether there is a verdict
  ReferenceError error = ReferenceError::None;  ///< the reference verdict
  std::string error_message;                    ///< when rejected: what is wrong and what to do
  std::optional<std::string> error_tensor;      ///< when rejected: the tensor the reference names
  std::vector<Finding> findings;                ///< our findings (also on rejected files, as far as read)
  std::vector<TensorEntry> tensors;             ///< after duplicates are resolved; in data order once step 6 ran
  bool has_metadata = false;                    ///< __metadata__ present and not null
  Metadata metadata;                            ///< duplicates resolved, last value wins
  std::vector<EmbeddedHash> embedded_hashes;    ///< the hashes `metadata` claims (embedded_hashes.h)
  std::uint64_t file_size = 0;                  ///< as given
  std::uint64_t header_length = 0;              ///< N from the length prefix (0 if unreadable)
  std::uint64_t data_start = 0;                 ///< 8 + N
};

}  // namespace safetensors
