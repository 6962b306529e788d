// A native scanner over the C++ core, for checking the scan against other scanners
// (tools/picklescan_agreement.py): one JSON line per file,
// {"file", "format", "verdict", "globals": [{"module", "name", "safety", "count"}], "findings": [{"code", "message",
// "where"}]} (cpp/scan/scan_json.h). Deflated records are inflated with the system zlib where it was found at build
// time.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "scan/checkpoint_reader.h"
#include "scan/scan_json.h"
#ifdef SAFETENSORS_HAVE_ZLIB
#include <zlib.h>
#endif

namespace {

using namespace safetensors;

class FileSource : public scan::ByteSource {
 public:
  explicit FileSource(const char* path) : in_(path, std::ios::binary) {
    in_.seekg(0, std::ios::end);
    size_ = in_ ? static_cast<std::uint64_t>(in_.tellg()) : 0;
  }
  bool ok() const { return static_cast<bool>(in_); }
  std::uint64_t size() const override { return size_; }
  bool read(std::uint64_t offset, std::span<std::uint8_t> out) const override {
    in_.clear();
    in_.seekg(static_cast<std::streamoff>(offset));
    in_.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(out.size()));
    return static_cast<std::uint64_t>(in_.gcount()) == out.size();
  }

 private:
  mutable std::ifstream in_;
  std::uint64_t size_ = 0;
};

#ifdef SAFETENSORS_HAVE_ZLIB
std::optional<std::vector<std::uint8_t>> inflate_raw(std::span<const std::uint8_t> in, std::uint64_t size) {
  std::vector<std::uint8_t> out(static_cast<std::size_t>(size));
  z_stream z{};
  if (inflateInit2(&z, -15) != Z_OK) return std::nullopt;
  z.next_in = const_cast<Bytef*>(in.data());
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = inflate(&z, Z_FINISH);
  inflateEnd(&z);
  if (rc != Z_STREAM_END || z.total_out != size) return std::nullopt;
  return out;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    FileSource source(argv[i]);
    if (!source.ok()) {
      std::cerr << "cannot read " << argv[i] << "\n";
      status = 2;
      continue;
    }
    scan::ReadOptions options;
    options.locate_storages = false;
    options.file_name = argv[i];
#ifdef SAFETENSORS_HAVE_ZLIB
    options.inflate = inflate_raw;
#endif
    const scan::Checkpoint ckpt = scan::read_checkpoint(source, options);
    const scan::ScanReport& r = ckpt.report;
    std::string line;
    scan::write_scan_json(r, argv[i], line);
    std::cout << line << "\n";
    if (r.verdict != scan::Verdict::Safe && status == 0) status = 1;
  }
  return status;
}
