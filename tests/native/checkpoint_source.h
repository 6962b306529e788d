// Test helpers for the pickle reader: a ByteSource over bytes in memory (counting what was
// read), and the checkpoints tests/checkpoints/make_checkpoints.py wrote with torch.save.
#pragma once

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "scan/checkpoint_reader.h"

namespace safetensors::testing {

/// @brief The folder of the committed checkpoints (CMakeLists.txt gives the path).
inline std::filesystem::path checkpoints_dir() { return SAFETENSORS_CHECKPOINTS; }

/// @brief A committed file's name as a GoogleTest parameter name ("views.pt" -> "views_pt").
inline std::string param_name(std::string file) {
  for (char& c : file)
    if (c == '.' || c == '-') c = '_';
  return file;
}

/// @brief A file's bytes.
inline std::string file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// @brief Serves bytes held in memory, and counts the bytes it served.
class MemorySource : public scan::ByteSource {
 public:
  explicit MemorySource(std::string bytes) : bytes_(std::move(bytes)) {}
  std::uint64_t size() const override { return bytes_.size(); }
  bool read(std::uint64_t offset, std::span<std::uint8_t> out) const override {
    if (offset > bytes_.size() || out.size() > bytes_.size() - offset) return false;
    std::memcpy(out.data(), bytes_.data() + offset, out.size());
    served_ += out.size();
    return true;
  }
  /// @brief Bytes served so far.
  std::uint64_t served() const { return served_; }
  /// @brief The bytes.
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
  mutable std::uint64_t served_ = 0;
};

/// @brief read_checkpoint over a committed checkpoint.
inline scan::Checkpoint read_committed(const std::string& name, const scan::ReadOptions& options = {}) {
  MemorySource source(file_bytes(checkpoints_dir() / name));
  return scan::read_checkpoint(source, options);
}

}  // namespace safetensors::testing
