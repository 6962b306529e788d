// torch.save's zip layout (torch/serialization.py _save, caffe2/serialize/inline_container.cc):
// every record sits under one folder (the archive name: "archive" in torch 2.x, the file's stem
// before), the pickle is <folder>/data.pkl and storage <key> is <folder>/data/<key>.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "container/zip_directory.h"

namespace safetensors::container {

/// @brief Which directory entries a torch checkpoint uses.
struct TorchArchive {
  std::optional<std::size_t> data_pickle;                     ///< the entry of <folder>/data.pkl
  std::string folder;                                         ///< e.g. "archive/"
  std::vector<std::pair<std::string, std::size_t>> storages;  ///< key -> entry, sorted by key
  std::vector<ContainerFinding> findings;                     ///< no or several data.pkl
};

/// @brief Finds data.pkl and the storage records among the directory's entries.
TorchArchive read_torch_archive(const ZipDirectory& directory);

/// @brief The entry of storage `key`, if the archive has it.
std::optional<std::size_t> find_storage(const TorchArchive& archive, std::string_view key);

}  // namespace safetensors::container
