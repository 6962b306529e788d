// What the container readers (zip, legacy torch, NumPy) can report. One table holds each
// code's stable name and message.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace safetensors::container {

/// @brief A container finding's code (rows of kContainerIssues).
enum class ContainerIssue : std::uint8_t {
  NoEndRecord,             ///< no zip end-of-central-directory record in the tail
  BadEndRecord,            ///< the end record (or its ZIP64 form) does not add up
  DirectoryOutOfRange,     ///< the central directory lies outside the file
  BadDirectoryEntry,       ///< a central directory entry is cut short or malformed
  EntryOutOfRange,         ///< an entry's data lies outside the file
  BadLocalHeader,          ///< no local header signature where the directory points
  LocalHeaderDisagrees,    ///< a local header's name, method or sizes differ from the directory
  ArchivePrefix,           ///< bytes precede the archive (offsets are shifted)
  NeedsInflate,            ///< a record is deflated: its bytes must be inflated by the caller
  UnsupportedCompression,  ///< a record compressed with a method other than stored or deflate
  NoDataPickle,            ///< a torch zip without a data.pkl record
  SeveralDataPickles,      ///< more than one data.pkl record
  MissingStorage,          ///< a tensor's storage key has no archive/data/<key> record
  StorageTooSmall,         ///< a tensor reads past the end of its storage
  BadLegacyMagic,          ///< a legacy torch file whose first pickle is not the magic number
  LegacyMagicByCall,       ///< the legacy magic number is produced by a call (it runs on load)
  BadLegacyProtocol,       ///< the legacy protocol version is not 1001
  BadNpyHeader,            ///< a .npy header that does not parse
};

/// @brief A code's stable name and what it means.
struct ContainerIssueInfo {
  std::string_view name;     ///< e.g. "needs-inflate"
  std::string_view message;  ///< plain words
};

/// @brief Number of ContainerIssue values.
inline constexpr int kContainerIssueCount = 18;

/// @brief The table, indexed by ContainerIssue.
inline constexpr std::array<ContainerIssueInfo, kContainerIssueCount> kContainerIssues{{
    {"no-end-record", "no zip end-of-central-directory record"},
    {"bad-end-record", "the zip end record does not add up"},
    {"directory-out-of-range", "the zip central directory lies outside the file"},
    {"bad-directory-entry", "a zip central directory entry is malformed"},
    {"entry-out-of-range", "a zip record's data lies outside the file"},
    {"bad-local-header", "no zip local header where the directory points"},
    {"local-header-disagrees", "a zip local header disagrees with the central directory"},
    {"archive-prefix", "bytes precede the zip archive"},
    {"needs-inflate", "a deflated zip record must be inflated first"},
    {"unsupported-compression", "a zip record uses a compression other than stored or deflate"},
    {"no-data-pickle", "a torch zip without a data.pkl record"},
    {"several-data-pickles", "a torch zip with more than one data.pkl record"},
    {"missing-storage", "a tensor's storage has no record in the archive"},
    {"storage-too-small", "a tensor reads past the end of its storage"},
    {"bad-legacy-magic", "a legacy torch file without the magic number"},
    {"legacy-magic-by-call", "the legacy torch magic number is produced by a call, which runs on load"},
    {"bad-legacy-protocol", "the legacy torch protocol version is not 1001"},
    {"bad-npy-header", "a NumPy .npy header that does not parse"},
}};

/// @brief The row of `issue`.
constexpr const ContainerIssueInfo& container_issue_info(ContainerIssue issue) {
  return kContainerIssues[static_cast<std::size_t>(issue)];
}

/// @brief One finding and where (a byte offset in the file, or in the record it names).
struct ContainerFinding {
  ContainerIssue issue;  ///< the code
  std::uint64_t offset;  ///< where
};

}  // namespace safetensors::container
