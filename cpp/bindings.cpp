// The only file that knows about Emscripten: Embind entry points over the core.
// Names start with an underscore: they are private to web/ (see web/core.js).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <span>
#include <vector>

#include "float32_convert.h"
#include "header_json.h"
#include "header_prefix.h"
#include "header_table.h"
#include "report.h"
#include "value_scan.h"

namespace {

using namespace safetensors;

std::span<const std::uint8_t> heap_bytes(std::uintptr_t ptr, std::size_t len) {
  return {reinterpret_cast<const std::uint8_t*>(ptr), len};
}

// How many bytes from the start of the file analyzeHeader needs: 8 + N when the
// length prefix passes steps 1-3, else just the prefix (the verdict is known).
double header_bytes_needed(std::uintptr_t ptr, std::size_t len, std::uint64_t file_size) {
  const HeaderExtent extent = read_header_extent(heap_bytes(ptr, len), file_size);
  if (extent.error != ReferenceError::None) return static_cast<double>(len);
  return static_cast<double>(kLengthPrefixSize + extent.header_length);
}

// Analyses the file's first bytes (with json_padding() readable bytes after them)
// and returns a view of the packed report; JS copies it before the next call.
// null means the parser ran out of memory: there is no verdict to report.
emscripten::val analyze(std::uintptr_t ptr, std::size_t len, std::uint64_t file_size) {
  static std::vector<std::uint8_t> table;
  const Report report = analyze_header(heap_bytes(ptr, len), file_size, true);
  if (report.out_of_memory) return emscripten::val::null();
  encode_header_table(report, table);
  return emscripten::val(emscripten::typed_memory_view(table.size(), table.data()));
}

std::size_t input_padding() { return json_padding(); }

// Converts `count` elements of the dtype with enum index `dtype` from `in` to float32 at `out`
// (both in the heap, scratch areas JS reuses chunk after chunk); false if it has no float32 form.
bool convert_chunk(int dtype, std::uintptr_t in, std::uintptr_t out, std::size_t count) {
  if (dtype < 0 || dtype >= kDtypeCount) return false;
  return convert_to_f32(static_cast<Dtype>(dtype), reinterpret_cast<const std::uint8_t*>(in),
                        reinterpret_cast<float*>(out), count);
}

void normalize_bool_chunk(std::uintptr_t in, std::uintptr_t out, std::size_t count) {
  normalize_bool(reinterpret_cast<const std::uint8_t*>(in), reinterpret_cast<std::uint8_t*>(out), count);
}

// The data scan of one file, one tensor at a time, fed from a heap scratch area. An object
// per scan (JS deletes it), so that scans running at the same time keep their own state.
class HeapScanner {
 public:
  void begin(int dtype) { scanner_ = ValueScanner(static_cast<Dtype>(dtype < 0 || dtype >= kDtypeCount ? 0 : dtype)); }

  void feed(std::uintptr_t ptr, std::size_t len) { scanner_.feed(reinterpret_cast<const std::uint8_t*>(ptr), len); }

  // [nan, +inf, -inf, nonzero] of the current tensor, as a view JS reads at once.
  emscripten::val counts() {
    const ValueCounts& c = scanner_.counts();
    out_[0] = static_cast<double>(c.nan);
    out_[1] = static_cast<double>(c.pos_inf);
    out_[2] = static_cast<double>(c.neg_inf);
    out_[3] = c.nonzero ? 1 : 0;
    return emscripten::val(emscripten::typed_memory_view(4, out_));
  }

 private:
  ValueScanner scanner_;
  double out_[4] = {};
};

}  // namespace

EMSCRIPTEN_BINDINGS(safetensors_core) {
  emscripten::function("_headerBytesNeeded", &header_bytes_needed);
  emscripten::function("_analyzeHeader", &analyze);
  emscripten::function("_inputPadding", &input_padding);
  emscripten::function("_convertToF32", &convert_chunk);
  emscripten::function("_normalizeBool", &normalize_bool_chunk);
  emscripten::class_<HeapScanner>("_HeapScanner")
      .constructor<>()
      .function("begin", &HeapScanner::begin)
      .function("feed", &HeapScanner::feed)
      .function("counts", &HeapScanner::counts);
}
