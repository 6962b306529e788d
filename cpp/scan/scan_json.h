// A file's scan report as JSON, the one form the native scanner (tools/pickle_scan) and the wasm
// pickle module (cpp/wasm/bindings.cpp) both give; with the checkpoint's contents for openCheckpoint: { file, format,
// verdict, globals: [{ module, name, safety, count }], findings: [{ code, message, where }] }.
#pragma once

#include <string>
#include <string_view>

#include "scan/checkpoint_reader.h"
#include "scan/scan_report.h"

namespace safetensors::scan {

/// @brief Appends `report` for the file named `file` as one JSON object (no newline).
void write_scan_json(const ScanReport& report, std::string_view file, std::string& out);

/// @brief Appends the report of `checkpoint` with its contents: the same object plus "tensors":
/// [{ name, storage, torchDtype, dtype (the safetensors name, or null), elementSize,
/// storageOffset, shape, stride (in elements), parameter }], "objects": [{ name, value }] (the
/// plain values met: None, bool, int, float, str), "objectsLeftOut", "unreadTensors": [{ name,
/// code, message }] (rebuild calls not read as tensors: kTensorIssues), "storages": [{ key, offset,
/// bytes, stored, size, crc32 }] (each storage's bytes in the file; stored false when deflated,
/// size and crc32 those of the inflated bytes) and "byteorder" (the torch zip's byteorder record,
/// "" when it has none).
void write_checkpoint_json(const Checkpoint& checkpoint, std::string_view file, std::string& out);

}  // namespace safetensors::scan
