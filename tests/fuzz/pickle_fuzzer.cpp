// libFuzzer target: the pickle machine and the containers on arbitrary bytes. The bytes run
// as a pickle (then the tensor walk and the scan's global classes over its values), and as a
// whole file through read_checkpoint (zip end record, central directory, local headers,
// legacy torch, NumPy), with small limits so that every run is quick. Checked on every input:
// the run never reads past the bytes, every value index points into the arena, each global
// has one safety, each tensor's shape and stride have one length, and storages lie in the file.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>

#include "pickle/pickle_machine.h"
#include "pickle/torch_records.h"
#include "scan/checkpoint_reader.h"
#include "scan/global_taint.h"

namespace {

using namespace safetensors;

class BytesSource : public scan::ByteSource {
 public:
  explicit BytesSource(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  std::uint64_t size() const override { return bytes_.size(); }
  bool read(std::uint64_t offset, std::span<std::uint8_t> out) const override {
    if (offset > bytes_.size() || out.size() > bytes_.size() - offset) std::abort();  // the reader asks only in range
    std::memcpy(out.data(), bytes_.data() + offset, out.size());
    return true;
  }

 private:
  std::span<const std::uint8_t> bytes_;
};

void check(bool ok) {
  if (!ok) std::abort();
}

void check_pickle(const pickle::PickleResult& p, std::size_t size) {
  check(p.end <= size);
  check(!p.complete || p.root < p.values.size());
  for (const pickle::Value& v : p.values) {
    for (pickle::ValueId id : v.items) check(id < p.values.size());
    for (pickle::ValueId id : v.extra) check(id < p.values.size());
    check(v.state == pickle::kNoValue || v.state < p.values.size());
  }
  for (const pickle::GlobalRef& g : p.globals) check(g.value < p.values.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  pickle::PickleLimits limits;
  limits.max_opcodes = 200'000;
  limits.max_stack = 10'000;
  limits.max_memo = 10'000;
  limits.max_string = 1 << 16;
  limits.max_allocation = 16 << 20;
  const std::span<const std::uint8_t> bytes(data, size);
  const pickle::PickleResult p = pickle::run_pickle(bytes, limits);
  check_pickle(p, size);
  check(scan::global_safeties(p).size() == p.globals.size());
  if (p.complete) {
    for (const pickle::TensorRecord& t : pickle::read_torch_tensors(p).tensors) {
      check(t.size.size() == t.stride.size());
      check(t.dtype < pickle::kTorchDtypeCount);
    }
  }
  BytesSource source(bytes);
  scan::ReadOptions options;
  options.limits = limits;
  options.max_pickle_bytes = 1 << 20;
  const scan::Checkpoint ckpt = scan::read_checkpoint(source, options);
  check_pickle(ckpt.data, size);
  for (const scan::StorageLocation& s : ckpt.storages) check(s.offset <= size && s.bytes <= size - s.offset);
  for (const scan::GlobalUse& g : ckpt.report.globals) check(g.count > 0);
  check(ckpt.report.verdict != scan::Verdict::Safe || ckpt.report.findings.empty());
  return 0;
}
