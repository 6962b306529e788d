// Files that are not safetensors at all: what they are, told from their first bytes. The most
// common failure in the wild is another file under a .safetensors name (a Git LFS pointer, a
// saved web page, a PyTorch checkpoint, ...): the reference only says HeaderTooLarge or the
// like, so the analysis adds a NotSafetensors finding naming the format and what to do.
// Detection never looks past the first kForeignSniffBytes bytes, and never fires on a file
// whose first bytes are a safetensors length prefix followed by a header's '{'.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace safetensors {

/// @brief The formats recognised (rows of kForeignFormats).
enum class ForeignFormat : std::uint8_t {
  GitLfsPointer,  ///< Git LFS pointer text: the real file was never fetched
  PytorchZip,     ///< torch.save's zip (an entry named data.pkl)
  Pickle,         ///< a raw pickle stream (protocol 2-5), e.g. torch.save before 1.6
  Gguf,           ///< llama.cpp's GGUF
  Html,           ///< a web page saved instead of the file
  Json,           ///< JSON: an index, a model_index.json, a config
  Png,            ///< a PNG image
  Jpeg,           ///< a JPEG image
  Gzip,           ///< a gzip stream
  Zip,            ///< any other zip archive
  Empty,          ///< zero bytes
};

/// @brief A format's stable name (the finding's `format` in JavaScript) and its plain words.
struct ForeignFormatInfo {
  std::string_view name;   ///< e.g. "git-lfs-pointer"
  std::string_view label;  ///< what a person calls it, e.g. "a Git LFS pointer"
};

/// @brief Number of ForeignFormat values.
inline constexpr int kForeignFormatCount = 11;

/// @brief The table, indexed by ForeignFormat (exported to JavaScript by cpp/wasm/core_tables.cpp).
inline constexpr std::array<ForeignFormatInfo, kForeignFormatCount> kForeignFormats{{
    {"git-lfs-pointer", "a Git LFS pointer"},
    {"pytorch-zip", "a PyTorch checkpoint (torch.save zip)"},
    {"pickle", "a Python pickle"},
    {"gguf", "a GGUF model"},
    {"html", "an HTML page"},
    {"json", "a JSON file"},
    {"png", "a PNG image"},
    {"jpeg", "a JPEG image"},
    {"gzip", "a gzip-compressed file"},
    {"zip", "a zip archive"},
    {"empty", "an empty file"},
}};

/// @brief The row of `format`.
constexpr const ForeignFormatInfo& foreign_format_info(ForeignFormat format) {
  return kForeignFormats[static_cast<std::size_t>(format)];
}

/// @brief Detection reads at most this many bytes from the start of the file.
inline constexpr std::size_t kForeignSniffBytes = 64 * 1024;

/// @brief A recognised format and the sentence for the NotSafetensors finding (what the
/// file is, with what its first bytes tell: an LFS pointer's size and oid, an image's size, ...,
/// and what to do).
struct ForeignFile {
  ForeignFormat format;
  std::string message;
};

/// @brief Whether the file starts as a safetensors file does: a length prefix within the
/// reference's limit, then (after spaces) the header's '{'. Such a file is never foreign.
bool looks_like_safetensors(std::span<const std::uint8_t> file_start, std::uint64_t file_size);

/// @brief What the file is, if it is a known other format.
/// @param file_start the first bytes of the file (only the first kForeignSniffBytes are read).
/// @param file_size the file's size.
std::optional<ForeignFile> detect_foreign_format(std::span<const std::uint8_t> file_start, std::uint64_t file_size);

}  // namespace safetensors
