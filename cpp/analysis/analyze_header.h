// The reference loader's checks on a file's first bytes, in its order, plus our findings.
#pragma once

#include <cstdint>
#include <span>

#include "analysis/report.h"

namespace safetensors {

/// @brief Runs every reference check and collects findings.
/// @param file_start the first min(file_size, 8 + N) bytes of the file (fewer are fine when
///        steps 1-3 fail); see read_header_extent() for how many are needed.
/// @param file_size total size of the file in bytes.
/// @param padded true when json_padding() bytes after `file_start` can be read.
Report analyze_header(std::span<const std::uint8_t> file_start, std::uint64_t file_size, bool padded = false);

}  // namespace safetensors
