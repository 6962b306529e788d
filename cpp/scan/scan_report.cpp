// Aggregates globals and findings into a scan report and decides its verdict (scan_report.h).
#include "scan/scan_report.h"

#include <algorithm>
#include <array>

#include "scan/global_taint.h"

namespace safetensors::scan {

std::string_view format_name(FileFormat format) {
  static constexpr std::array<std::string_view, 6> kNames{"pytorch-zip", "pytorch-legacy", "pickle", "npy",
                                                          "zip",         "not-pickle"};
  return kNames[static_cast<std::size_t>(format)];
}

std::string_view verdict_name(Verdict verdict) {
  static constexpr std::array<std::string_view, 3> kNames{"safe", "unknown", "unsafe"};
  return kNames[static_cast<std::size_t>(verdict)];
}

void ScanReport::add_pickle(const pickle::PickleResult& pickle, const std::string& where) {
  const std::vector<Safety> safeties = global_safeties(pickle);
  for (std::size_t i = 0; i < pickle.globals.size(); ++i) {
    const pickle::GlobalRef& g = pickle.globals[i];
    GlobalUse* use = nullptr;
    for (GlobalUse& u : globals)
      if (u.module == g.module && u.name == g.name) use = &u;
    if (use == nullptr) {
      globals.push_back({g.module, g.name, safeties[i], 0, where, g.offset});
      use = &globals.back();
    }
    ++use->count;
    use->safety = std::max(use->safety, safeties[i]);  // the worst occurrence
  }
  for (const pickle::PickleFinding& f : pickle.findings) {
    const auto& info = pickle::pickle_issue_info(f.issue);
    add(info.name, info.message, where, f.offset);
  }
}

void ScanReport::add(const container::ContainerFinding& finding, const std::string& where) {
  const auto& info = container::container_issue_info(finding.issue);
  add(info.name, info.message, where, finding.offset);
}

void ScanReport::add(const pickle::TensorFinding& finding, const std::string& where) {
  const auto& info = pickle::kTensorIssues[static_cast<std::size_t>(finding.issue)];
  add(info.name, info.message, where + (finding.name.empty() ? "" : ": " + finding.name), 0);
}

void ScanReport::add(std::string_view code, std::string_view message, const std::string& where, std::uint64_t offset) {
  findings.push_back({code, message, where, offset});
}

void ScanReport::add(ScanIssue issue, const std::string& where) {
  const auto& row = kScanIssues[static_cast<std::size_t>(issue)];
  add(row[0], row[1], where, 0);
}

void ScanReport::decide() {
  verdict = findings.empty() && format != FileFormat::NotPickle ? Verdict::Safe : Verdict::Unknown;
  for (const GlobalUse& g : globals) {
    if (g.safety == Safety::Unsafe) {
      verdict = Verdict::Unsafe;
      return;
    }
    if (g.safety == Safety::Unknown) verdict = Verdict::Unknown;
  }
}

}  // namespace safetensors::scan
