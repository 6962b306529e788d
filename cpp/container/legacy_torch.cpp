// Reads the legacy torch format (legacy_torch.h). The magic number must be a plain integer:
// torch.load runs whatever the first pickle holds, so a call there is an evasion finding.
#include "container/legacy_torch.h"

#include <algorithm>

#include "container/zip_directory.h"

namespace safetensors::container {

using pickle::Kind;
using pickle::PickleResult;

bool is_legacy_torch(std::span<const std::uint8_t> first_bytes) {
  return first_bytes.size() >= kLegacyMagicPickle.size() &&
         std::equal(kLegacyMagicPickle.begin(), kLegacyMagicPickle.end(), first_bytes.begin());
}

LegacyPickles read_legacy_pickles(std::span<const std::uint8_t> bytes, const pickle::PickleLimits& limits) {
  LegacyPickles out;
  std::uint64_t at = 0;
  for (int i = 0; i < 5; ++i) {
    out.starts.push_back(at);
    out.pickles.push_back(pickle::run_pickle(bytes.subspan(at), limits));
    const PickleResult& p = out.pickles.back();
    if (!p.complete) return out;
    at += p.end;
  }
  const PickleResult& magic = out.pickles[0];
  const auto& root = magic.at(magic.root);
  const std::span<const std::uint8_t> magic_bytes(kLegacyMagicPickle.begin() + 4, kLegacyMagicPickle.end());
  const bool magic_ok = root.kind == Kind::BigInt &&
                        std::equal(root.text.begin(), root.text.end(), magic_bytes.begin(), magic_bytes.end(),
                                   [](char a, std::uint8_t b) { return static_cast<std::uint8_t>(a) == b; });
  if (root.kind == Kind::Call)
    out.findings.push_back({ContainerIssue::LegacyMagicByCall, 0});
  else if (!magic_ok)
    out.findings.push_back({ContainerIssue::BadLegacyMagic, 0});
  const PickleResult& version = out.pickles[1];
  const auto& v = version.at(version.root);
  if (v.kind != Kind::Int || v.integer != kLegacyProtocolVersion)
    out.findings.push_back({ContainerIssue::BadLegacyProtocol, out.starts[1]});
  out.storages_offset = at;
  out.ok = out.findings.empty();
  return out;
}

LegacyStorage read_legacy_storage(std::span<const std::uint8_t> count, std::uint64_t offset, std::uint64_t element_size,
                                  std::uint64_t file_size) {
  LegacyStorage out;
  if (count.size() < 8 || offset > file_size || file_size - offset < 8) return out;
  out.numel = read_le(count, 0, 8);
  out.data_offset = offset + 8;
  const std::uint64_t room = file_size - out.data_offset;
  if (element_size == 0 || out.numel > room / element_size) return out;
  out.next = out.data_offset + out.numel * element_size;
  out.ok = true;
  return out;
}

}  // namespace safetensors::container
