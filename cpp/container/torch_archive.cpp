// Reads torch.save's zip layout (torch_archive.h).
#include "container/torch_archive.h"

#include <algorithm>

namespace safetensors::container {

TorchArchive read_torch_archive(const ZipDirectory& directory) {
  TorchArchive out;
  constexpr std::string_view kPickle = "data.pkl";
  for (std::size_t i = 0; i < directory.entries.size(); ++i) {
    const std::string& name = directory.entries[i].name;
    const std::size_t slash = name.find('/');
    if (slash == std::string::npos || name.compare(slash + 1, std::string::npos, kPickle) != 0) continue;
    if (out.data_pickle) {
      out.findings.push_back({ContainerIssue::SeveralDataPickles, directory.entries[i].header_offset});
      continue;
    }
    out.data_pickle = i;
    out.folder = name.substr(0, slash + 1);
  }
  if (!out.data_pickle) {
    out.findings.push_back({ContainerIssue::NoDataPickle, 0});
    return out;
  }
  const std::string data = out.folder + "data/";
  for (std::size_t i = 0; i < directory.entries.size(); ++i) {
    const std::string& name = directory.entries[i].name;
    if (name.size() > data.size() && name.starts_with(data)) out.storages.emplace_back(name.substr(data.size()), i);
  }
  std::sort(out.storages.begin(), out.storages.end());
  return out;
}

std::optional<std::size_t> find_storage(const TorchArchive& archive, std::string_view key) {
  auto it = std::lower_bound(archive.storages.begin(), archive.storages.end(), key,
                             [](const auto& row, std::string_view k) { return row.first < k; });
  if (it == archive.storages.end() || it->first != key) return std::nullopt;
  return it->second;
}

}  // namespace safetensors::container
