// A file's scan report as JSON, the one form the native scanner (tools/pickle_scan) and the wasm
// pickle module (cpp/wasm/bindings.cpp) both give: { file, format, verdict, globals: [{ module,
// name, safety, count }], findings: [{ code, message, where }] }.
#pragma once

#include <string>
#include <string_view>

#include "scan/scan_report.h"

namespace safetensors::scan {

/// @brief Appends `report` for the file named `file` as one JSON object (no newline).
void write_scan_json(const ScanReport& report, std::string_view file, std::string& out);

}  // namespace safetensors::scan
