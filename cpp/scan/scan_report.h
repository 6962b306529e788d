// A file's scan: its format, every global its pickles name (module, name, safety, how often,
// where first), the findings of the pickle machine, the containers and the tensor reader, and a
// verdict: unsafe when any global is unsafe; else unknown when any global is unknown or
// anything was found; else safe.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "container/container_issues.h"
#include "pickle/pickle_machine.h"
#include "pickle/torch_records.h"
#include "scan/global_safety.h"

namespace safetensors::scan {

/// @brief What the file is.
enum class FileFormat : std::uint8_t {
  PytorchZip,     ///< torch.save's zip (a data.pkl record)
  PytorchLegacy,  ///< torch.save before 1.6 (the magic number)
  Pickle,         ///< a plain pickle stream
  Npy,            ///< a NumPy .npy (object arrays hold a pickle)
  Zip,            ///< another zip (.npz, a zip of pickles)
  NotPickle,      ///< none of these
};

/// @brief The stable names ("pytorch-zip", ...).
std::string_view format_name(FileFormat format);

/// @brief The file's verdict.
enum class Verdict : std::uint8_t {
  Safe,     ///< every global is safe and nothing was found
  Unknown,  ///< an unknown global, or a finding (unreadable, limit, evasion)
  Unsafe,   ///< an unsafe global
};

/// @brief The stable names "safe", "unknown", "unsafe".
std::string_view verdict_name(Verdict verdict);

/// @brief Findings of the scan itself (the pickle machine, containers and tensor reader have theirs).
enum class ScanIssue : std::uint8_t {
  PickleNamedSafetensors,  ///< a pickle under a .safetensors name
  RecordTooLarge,          ///< a record longer than ReadOptions::max_pickle_bytes, not scanned
};

/// @brief The stable name and message of each ScanIssue, indexed by it.
inline constexpr std::array<std::array<std::string_view, 2>, 2> kScanIssues{{
    {"pickle-named-safetensors", "a pickle under a .safetensors name: loading it as a checkpoint runs it"},
    {"record-too-large", "a record too large to scan"},
}};

/// @brief One global, counted over the file.
struct GlobalUse {
  std::string module;    ///< as written
  std::string name;      ///< as written
  Safety safety;         ///< its class
  std::uint64_t count;   ///< occurrences in all the file's pickles
  std::string where;     ///< the first pickle naming it, e.g. "archive/data.pkl"
  std::uint64_t offset;  ///< the first occurrence's byte offset in that pickle
};

/// @brief One finding, from any of the three tables.
struct ScanFinding {
  std::string_view code;     ///< stable name, e.g. "data-after-stop"
  std::string_view message;  ///< plain words
  std::string where;         ///< the pickle or record ("" for the file)
  std::uint64_t offset;      ///< byte offset in `where`
};

/// @brief The report.
struct ScanReport {
  FileFormat format = FileFormat::NotPickle;  ///< what the file is
  Verdict verdict = Verdict::Unknown;         ///< see the file comment
  std::vector<GlobalUse> globals;             ///< in order of first use
  std::vector<ScanFinding> findings;          ///< in order met

  /// @brief Adds the globals and findings of one pickle, read from `where`.
  void add_pickle(const pickle::PickleResult& pickle, const std::string& where);
  /// @brief Adds a container finding.
  void add(const container::ContainerFinding& finding, const std::string& where);
  /// @brief Adds a tensor finding.
  void add(const pickle::TensorFinding& finding, const std::string& where);
  /// @brief Adds a finding of the scan itself, from kScanIssues.
  void add(ScanIssue issue, const std::string& where);
  /// @brief Adds a finding by code and message.
  void add(std::string_view code, std::string_view message, const std::string& where, std::uint64_t offset);
  /// @brief Sets the verdict from the globals and findings.
  void decide();
};

}  // namespace safetensors::scan
