// The only file that knows about Emscripten: Embind entry points of the three wasm modules.
// Built three times: as the core (header analysis, decoding, scans; always loaded); with
// SAFETENSORS_CARD_MODULE, as the card module (the model card; loaded by web/ only when a card
// is asked for, so that pages that only open and decode never download it); with
// SAFETENSORS_PICKLE_MODULE, as the pickle module (scanPickle; loaded on the first scan).
// Names start with an underscore: they are private to web/ (see web/core/wasm_module.js, which
// runs every call through its trap guard).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {

// A view of `table` on the heap; JS copies it before the next call.
emscripten::val view_of(const std::vector<std::uint8_t>& table) {
  return emscripten::val(emscripten::typed_memory_view(table.size(), table.data()));
}

}  // namespace

#ifdef SAFETENSORS_CARD_MODULE

#include "wasm/decoded_header_table.h"

namespace {

using namespace safetensors;

// Where JS writes the header table the core gave it at open (cpp/wasm/header_table.h).
std::uintptr_t table_bytes(DecodedHeaderTable& table) { return reinterpret_cast<std::uintptr_t>(table.bytes()); }

// The model card of the file (a card table: a view to copy), or null when the bytes are not
// a header table.
emscripten::val card_table(DecodedHeaderTable& table) {
  static std::vector<std::uint8_t> out;
  return table.card_table(out) ? view_of(out) : emscripten::val::null();
}

// The module tree of the same file (split as kohya's names when `kohya`; the card table says),
// a module tree table (a view to copy), or null as above. From the table decoded for the card:
// web/ builds it on the first read of `card.modules`, then deletes the object.
emscripten::val module_tree_table(DecodedHeaderTable& table, bool kohya) {
  static std::vector<std::uint8_t> out;
  return table.module_tree_table(kohya, out) ? view_of(out) : emscripten::val::null();
}

// Whether `adapter`'s file fits `base`'s as an adapter (cpp/adapter/adapter_check.h): its verdict as
// JSON, or null when either is not a header table.
emscripten::val adapter_check(DecodedHeaderTable& adapter, DecodedHeaderTable& base) {
  std::string json;
  return adapter.adapter_check_json(base, json) ? emscripten::val(json) : emscripten::val::null();
}

}  // namespace

EMSCRIPTEN_BINDINGS(safetensors_card) {
  // One per file described (web/card/model_card.js deletes it): the table decoded once.
  emscripten::class_<DecodedHeaderTable>("_DecodedHeaderTable")
      .constructor<std::size_t>()
      .function("bytes", &table_bytes)
      .function("cardTable", &card_table)
      .function("moduleTreeTable", &module_tree_table)
      .function("adapterCheck", &adapter_check);
}

#elif defined(SAFETENSORS_PICKLE_MODULE)

#include "wasm/pickle_scan_session.h"

namespace {

using safetensors::PickleScanSession;

// The first record waiting to be inflated (a view to copy), or null.
emscripten::val inflate_input(PickleScanSession& s) {
  const std::vector<std::uint8_t>* input = s.inflate_input();
  return input ? view_of(*input) : emscripten::val::null();
}

}  // namespace

EMSCRIPTEN_BINDINGS(safetensors_pickle) {
  // One per scan (web/pickle/scan_pickle.js deletes it).
  emscripten::class_<PickleScanSession>("_PickleScan")
      .constructor<std::uint64_t, std::string>()
      .function("reserve", &PickleScanSession::reserve)
      .function("add", &PickleScanSession::add)
      .function("wantContents", &PickleScanSession::want_contents)
      .function("round", &PickleScanSession::round)
      .function("inflateInput", &inflate_input)
      .function("inflateSize", &PickleScanSession::inflate_size)
      .function("inflated", &PickleScanSession::inflated);
}

#else  // the core

#include "analysis/analyze_header.h"
#include "analysis/foreign_format.h"
#include "convert/float32_convert.h"
#include "convert/narrow_float.h"
#include "convert/value_scan.h"
#include "findings/scan_findings.h"
#include "format/header_json.h"
#include "format/header_prefix.h"
#include "wasm/core_tables.h"
#include "wasm/header_table.h"

namespace {

using namespace safetensors;

std::span<const std::uint8_t> heap_bytes(std::uintptr_t ptr, std::size_t len) {
  return {reinterpret_cast<const std::uint8_t*>(ptr), len};
}

// The dtype table, error kinds and finding codes, once per module.
emscripten::val core_tables() {
  static std::vector<std::uint8_t> table;
  encode_core_tables(table);
  return view_of(table);
}

// How many bytes from the start of the file analyzeHeader needs: 8 + N when the
// length prefix passes steps 1-3, else (the verdict is known) the first bytes that tell
// what the file is instead (at most kForeignSniffBytes).
double header_bytes_needed(std::uintptr_t ptr, std::size_t len, std::uint64_t file_size) {
  const HeaderExtent extent = read_header_extent(heap_bytes(ptr, len), file_size);
  if (extent.error != ReferenceError::None) {
    return static_cast<double>(std::min<std::uint64_t>(file_size, kForeignSniffBytes));
  }
  return static_cast<double>(kLengthPrefixSize + extent.header_length);
}

// Analyses the file's first bytes (with json_padding() readable bytes after them) and returns
// a view of the packed report. null means the parser ran out of memory: there is no verdict.
emscripten::val analyze(std::uintptr_t ptr, std::size_t len, std::uint64_t file_size) {
  static std::vector<std::uint8_t> table;
  const Report report = analyze_header(heap_bytes(ptr, len), file_size, true);
  if (report.outcome == Outcome::OutOfMemory) return emscripten::val::null();
  encode_header_table(report, table);
  return view_of(table);
}

std::size_t input_padding() { return json_padding(); }

// Converts `count` elements of the dtype with enum index `dtype` from `in` to float32 at
// `out` (both in the heap, scratch areas JS reuses chunk after chunk). JS asks only for
// dtypes with a float32 form; anything else is a bug, and traps (InternalError in JS).
void convert_chunk(int dtype, std::uintptr_t in, std::uintptr_t out, std::size_t count) {
  if (dtype < 0 || dtype >= kDtypeCount ||
      !convert_to_f32(static_cast<Dtype>(dtype), reinterpret_cast<const std::uint8_t*>(in),
                      reinterpret_cast<float*>(out), count)) {
    __builtin_trap();
  }
}

// Converts `count` elements of dtype index `from` at `in` to dtype index `to` (F16 or BF16) at
// `out`, rounding to nearest even. JS asks only for pairs can_narrow accepts; anything else traps.
void narrow_chunk(int from, int to, std::uintptr_t in, std::uintptr_t out, std::size_t count) {
  if (from < 0 || from >= kDtypeCount || to < 0 || to >= kDtypeCount ||
      !convert_floats(static_cast<Dtype>(from), static_cast<Dtype>(to), reinterpret_cast<const std::uint8_t*>(in),
                      reinterpret_cast<std::uint8_t*>(out), count)) {
    __builtin_trap();
  }
}

bool can_narrow_dtypes(int from, int to) {
  return from >= 0 && from < kDtypeCount && to >= 0 && to < kDtypeCount &&
         can_narrow(static_cast<Dtype>(from), static_cast<Dtype>(to));
}

void normalize_bool_chunk(std::uintptr_t in, std::uintptr_t out, std::size_t count) {
  normalize_bool(reinterpret_cast<const std::uint8_t*>(in), reinterpret_cast<std::uint8_t*>(out), count);
}

// The data scan of one file, one tensor at a time, fed from a heap scratch area, and its
// findings. An object per scan (JS deletes it), so that scans running at the same time
// keep their own state.
class HeapScanner {
 public:
  // Starts the tensor at `index` (data order) of dtype index `dtype`.
  void begin(std::size_t index, int dtype) {
    if (dtype < 0 || dtype >= kDtypeCount) __builtin_trap();
    index_ = index;
    dtype_ = static_cast<Dtype>(dtype);
    scanner_ = ValueScanner(dtype_);
  }

  void feed(std::uintptr_t ptr, std::size_t len) { scanner_.feed(reinterpret_cast<const std::uint8_t*>(ptr), len); }

  // Ends the current tensor: [nan, +inf, -inf, all zero] as a view JS reads at once.
  emscripten::val end() {
    const ValueCounts& c = scanner_.counts();
    tally_.add(index_, dtype_, c);
    out_[0] = static_cast<double>(c.nan);
    out_[1] = static_cast<double>(c.pos_inf);
    out_[2] = static_cast<double>(c.neg_inf);
    out_[3] = c.all_zero() ? 1 : 0;
    return emscripten::val(emscripten::typed_memory_view(4, out_));
  }

  // The scan's findings as a findings table; `name_of(index)` gives a tensor's name.
  emscripten::val findings(emscripten::val name_of) {
    const auto name = [&](bool wanted, std::size_t index) {
      return wanted ? name_of(static_cast<double>(index)).as<std::string>() : std::string();
    };
    const std::string nonfinite = name(tally_.nonfinite_tensors() != 0, tally_.first_nonfinite());
    const std::string zero = name(tally_.zero_tensors() != 0, tally_.first_zero());
    TableWriter w;
    write_findings(w, tally_.findings(nonfinite, zero));
    w.finish(table_);
    return view_of(table_);
  }

 private:
  ValueScanner scanner_;
  std::size_t index_ = 0;
  Dtype dtype_ = Dtype::U8;
  ScanTally tally_;
  double out_[4] = {};
  std::vector<std::uint8_t> table_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(safetensors_core) {
  emscripten::function("_coreTables", &core_tables);
  emscripten::function("_headerBytesNeeded", &header_bytes_needed);
  emscripten::function("_analyzeHeader", &analyze);
  emscripten::function("_inputPadding", &input_padding);
  emscripten::function("_convertToF32", &convert_chunk);
  emscripten::function("_normalizeBool", &normalize_bool_chunk);
  emscripten::function("_narrowFloats", &narrow_chunk);
  emscripten::function("_canNarrow", &can_narrow_dtypes);
  emscripten::class_<HeapScanner>("_HeapScanner")
      .constructor<>()
      .function("begin", &HeapScanner::begin)
      .function("feed", &HeapScanner::feed)
      .function("end", &HeapScanner::end)
      .function("findings", &HeapScanner::findings);
}

#endif  // the module
