// Writer of the core tables (see core_tables.h for the sequence).
#include "wasm/core_tables.h"

#include <array>
#include <string_view>

#include "analysis/foreign_format.h"
#include "findings/finding.h"
#include "format/dtype.h"
#include "format/header_prefix.h"
#include "format/reference_error.h"
#include "wasm/table_writer.h"

namespace safetensors {
namespace {

// Storage as JavaScript names it: the typed array (without "Array") whose elements the
// bytes are, or how the bytes become values (web/tensors/plan.js).
constexpr std::array<std::string_view, 13> kStorageNames{
    "Uint8",    "Int8",    "Uint16",  "Int16",        "Uint32", "Int32",  "BigUint64",
    "BigInt64", "Float32", "Float64", "narrow-float", "bool",   "packed",
};
static_assert(static_cast<std::size_t>(Storage::Packed) + 1 == kStorageNames.size());

}  // namespace

void encode_core_tables(std::vector<std::uint8_t>& out) {
  TableWriter w;
  w.number(kCoreTablesVersion);
  w.number(kDtypeCount);
  for (int i = 0; i < kDtypeCount; ++i) {
    const auto dtype = static_cast<Dtype>(i);
    const DtypeInfo& d = dtype_info(dtype);
    w.string(d.name);
    w.number(d.bits);
    w.number(dtype_unit(dtype).bytes);
    w.number(dtype_unit(dtype).elements);
    w.string(kStorageNames[static_cast<std::size_t>(d.storage)]);
  }
  w.number(kReferenceErrorCount);
  for (std::string_view name : kReferenceErrorNames) w.string(name);
  w.number(kSeverityCount);
  for (std::string_view name : kSeverityNames) w.string(name);
  w.number(static_cast<double>(Severity::Error));  // the severity of every reference error
  w.number(kFindingCodeCount);
  for (const FindingCodeInfo& code : kFindingCodes) {
    w.string(code.name);
    w.number(static_cast<double>(code.severity));
  }
  w.number(static_cast<double>(kMaxHeaderLength));
  w.number(kForeignFormatCount);
  for (const ForeignFormatInfo& format : kForeignFormats) {
    w.string(format.name);
    w.string(format.label);
  }
  w.finish(out);
}

}  // namespace safetensors
