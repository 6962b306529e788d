// The result of analysing a file's header: the reference verdict, our findings,
// and the tensors and metadata the reference loader would see.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "header.h"
#include "reference_error.h"

namespace safetensors {

/// @brief How much a finding matters.
enum class Severity : std::uint8_t {
  Error,    ///< the reference loader rejects the file
  Warning,  ///< loadable, but likely wrong or unsafe to rely on
  Info,     ///< loadable and fine, worth knowing
};

/// @brief One observation about the file, for a person.
struct Finding {
  std::string code;     ///< stable identifier, e.g. "DuplicateTensorName" or a reference error kind
  Severity severity = Severity::Info;  ///< how much it matters
  std::string message;  ///< a sentence saying what it means and what to do
  std::string tensor;   ///< the tensor concerned, when has_tensor
  bool has_tensor = false;  ///< whether `tensor` is set
};

/// @brief A finding, about `tensor` when it is not null.
inline Finding make_finding(std::string code, Severity severity, std::string message,
                            const std::string* tensor = nullptr) {
  Finding f;
  f.code = std::move(code);
  f.severity = severity;
  f.message = std::move(message);
  if (tensor != nullptr) {
    f.tensor = *tensor;
    f.has_tensor = true;
  }
  return f;
}

/// @brief Everything the header tells.
struct Report {
  ReferenceError error = ReferenceError::None;  ///< the reference verdict
  std::vector<Finding> findings;                ///< the error (if any) first, then the rest
  bool header_parsed = false;                   ///< the header JSON was read (steps 1-5 passed)
  std::vector<TensorEntry> tensors;             ///< after duplicates are resolved; in data order once step 6 ran
  bool has_metadata = false;                    ///< __metadata__ present and not null
  std::vector<std::pair<std::string, std::string>> metadata;  ///< duplicates resolved, last value wins
  std::uint64_t file_size = 0;                  ///< as given
  std::uint64_t header_length = 0;              ///< N from the length prefix (0 if unreadable)
  std::uint64_t data_start = 0;                 ///< 8 + N
  bool out_of_memory = false;  ///< the header could not be parsed for lack of memory: no verdict at all
};

/// @brief Runs every reference check and collects findings.
/// @param file_start the first min(file_size, 8 + N) bytes of the file (fewer are fine when
///        steps 1-3 fail); see read_header_extent() for how many are needed.
/// @param file_size total size of the file in bytes.
/// @param padded true when json_padding() bytes after `file_start` can be read.
Report analyze_header(std::span<const std::uint8_t> file_start, std::uint64_t file_size,
                      bool padded = false);

}  // namespace safetensors
