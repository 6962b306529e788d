// A Report packed for JavaScript (a TableWriter table, decoded by web/header/header_table.js).
//
// Sequence: reference error (index into kReferenceErrorNames, 0 for none; when not 0,
// its message, has tensor, [tensor]); file size; header length; data start; findings;
// metadata (-1 for none, else count, then key, value pairs); embedded hashes (count, then
// per hash: key, value, what it covers by name: hash_cover_name); tensors (count, then per
// tensor: name, dtype index, ndim, dims, begin, end, exact flag, [ndim dims as decimal
// strings when a dim is above 2^53-1].
// Findings (also the data scan's): count, then per finding: code index (into
// kFindingCodes), message, has tensor, [tensor], format (0 for none, else 1 + its index
// into kForeignFormats).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "analysis/report.h"
#include "card/tensor_view.h"
#include "wasm/table_writer.h"

namespace safetensors {

/// @brief Packs `report` into `out` (resized, its capacity reused).
void encode_header_table(const Report& report, std::vector<std::uint8_t>& out);

/// @brief A file's tensors and metadata, read back from its table.
struct TableHeader {
  std::vector<TensorView> tensors;  ///< names point into the table, shapes into `dims`
  std::vector<std::uint64_t> dims;  ///< every tensor's shape, back to back
  bool has_metadata = false;
  Metadata metadata;
  /// Tensors whose data_offsets were no byte range, or all of an InvalidOffset file's: their
  /// begin is 0 and their end the bytes their dtype and shape say.
  std::size_t sized_from_shapes = 0;
};

/// @brief Reads back a file's table, loadable or not (findings and embedded hashes are skipped: the
/// card reads the hashes from the metadata with the analysis' function); false when `table`
/// is not such a table. The card module's input: JS keeps the table it received at open
/// and sends it back for the model card. `out` is valid while `table` is.
bool decode_header_table(std::span<const std::uint8_t> table, TableHeader& out);

/// @brief Appends `findings` to a table being written.
void write_findings(TableWriter& w, std::span<const Finding> findings);

}  // namespace safetensors
