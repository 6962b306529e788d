// One sniffer per binary format, each checking the format's own signature (the spec named beside
// it) and reading what the first bytes say about the file, bounds-checked within the window; the
// text formats are text_formats.cpp's. Then the order in which they are tried.
#include "analysis/foreign_format.h"

#include <algorithm>

#include "analysis/sniff_bytes.h"
#include "analysis/text_formats.h"
#include "findings/message_text.h"
#include "format/header_prefix.h"

namespace safetensors {

using namespace sniff;

namespace {

constexpr std::string_view kDoNotUnpickle =
    "; a pickle can run any code when it is loaded, so do not load it if it came from someone you do not trust. "
    "`safetensors-wasm scan FILE` judges it and `safetensors-wasm convert FILE -o OUT.safetensors` converts its "
    "tensors, both without running it (in JS: scanPickle, openCheckpoint)";

// A zip local file header (PKWARE APPNOTE 4.3.7) at `at`: its name, and where the next one starts
// (0 when it cannot be known: sizes after the data, or zip64).
struct ZipEntry {
  std::string_view name;
  std::uint64_t next = 0;
};
std::optional<ZipEntry> zip_entry(Bytes b, std::size_t at) {
  if (at + 30 > b.size() || little_endian(b, at, 4) != 0x04034b50) return std::nullopt;
  const std::uint64_t flags = little_endian(b, at + 6, 2), packed = little_endian(b, at + 18, 4);
  const std::uint64_t name_length = little_endian(b, at + 26, 2), extra = little_endian(b, at + 28, 2);
  if (at + 30 + name_length > b.size()) return std::nullopt;
  ZipEntry e{text_of(b.subspan(at + 30, name_length))};
  if ((flags & 8) == 0 && packed != 0xFFFFFFFF) e.next = at + 30 + name_length + extra + packed;
  return e;
}

// torch.save's zip (pytorch/pytorch torch/serialization.py: records "data.pkl", "byteorder",
// "data/<key>", ... under one folder) or another zip (also empty: an end record alone).
std::optional<ForeignFile> zip_archive(Bytes b) {
  std::optional<ZipEntry> e = zip_entry(b, 0);
  if (!e) {
    if (!starts_with(b, "PK\x05\x06")) return std::nullopt;
    return ForeignFile{ForeignFormat::Zip, what(ForeignFormat::Zip) + " with nothing in it, not a model"};
  }
  const std::string first(e->name);
  for (int i = 0; e && i < 64; ++i) {
    if (e->name == "data.pkl" || e->name.ends_with("/data.pkl")) {
      return ForeignFile{ForeignFormat::PytorchZip, what(ForeignFormat::PytorchZip) + " with its pickle in " +
                                                        quote_text(e->name) + ", not safetensors" +
                                                        std::string(kDoNotUnpickle)};
    }
    e = e->next != 0 && e->next < b.size() ? zip_entry(b, static_cast<std::size_t>(e->next)) : std::nullopt;
  }
  return ForeignFile{ForeignFormat::Zip, what(ForeignFormat::Zip) + " (its first entry is " + quote_text(first) +
                                             "), not a model: extract it and open the .safetensors file it holds"};
}

// A pickle stream of protocol 2-5 starts with PROTO <n> and then an opcode (CPython
// Lib/pickletools.py); torch.save before 1.6 first pickled the magic number 0x1950a86a20f9469cfc6c.
std::optional<std::string> pickle(Bytes b) {
  constexpr std::string_view kOpcodes = "(.0123FIJKLMNPQRSTUVXabcdeghijlopqrstu}])GBC";
  if (b.size() < 3 || b[0] != 0x80 || b[1] < 2 || b[1] > 5) return std::nullopt;
  if (kOpcodes.find(static_cast<char>(b[2])) == std::string_view::npos && (b[2] < 0x80 || b[2] > 0x98))
    return std::nullopt;
  const bool legacy_torch = starts_with(b, "\x80\x02\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19");
  return what(ForeignFormat::Pickle) + " (protocol " + std::to_string(b[1]) + ")" +
         (legacy_torch ? ", a PyTorch checkpoint in torch.save's format before 1.6" : "") + ", not safetensors" +
         std::string(kDoNotUnpickle);
}

// GGUF (ggml-org/ggml docs/gguf.md): "GGUF", u32 version, then tensor and key-value counts (u64
// from version 2, u32 in 1), then key-value pairs: llama.cpp writes general.architecture first.
std::optional<std::string> gguf(Bytes b) {
  if (!starts_with(b, "GGUF") || b.size() < 8) return std::nullopt;
  const std::uint64_t version = little_endian(b, 4, 4);
  const int width = version == 1 ? 4 : 8;
  std::string facts = "version " + std::to_string(version);
  const std::size_t key_at = 8 + 2 * static_cast<std::size_t>(width);
  if (version >= 1 && version < 100 && b.size() >= key_at + width) {
    facts += ", " + group_digits(little_endian(b, 8, width)) + " tensors";
    const std::uint64_t key_length = little_endian(b, key_at, width);
    const std::size_t type_at = key_at + width + (key_length < 64 ? key_length : 0);
    if (key_length == 20 && b.size() >= type_at + 4 + width &&
        text_of(b.subspan(key_at + width, 20)) == "general.architecture" && little_endian(b, type_at, 4) == 8) {
      const std::uint64_t n = little_endian(b, type_at + 4, width);
      const std::size_t at = type_at + 4 + width;
      if (n <= 64 && at + n <= b.size()) facts += ", architecture " + quote_text(text_of(b.subspan(at, n)));
    }
  }
  return what(ForeignFormat::Gguf) + " (llama.cpp's format; " + facts +
         "), not safetensors: open it with llama.cpp or another GGUF reader";
}

// Images and gzip: PNG (ISO/IEC 15948: the 8-byte signature, then IHDR's width and height),
// JPEG (ITU T.81: SOI then a marker), gzip (RFC 1952: 1f 8b, method 8, FNAME after FEXTRA).
std::optional<ForeignFile> binary_file(Bytes b) {
  if (starts_with(b, "\x89PNG\r\n\x1a\n")) {
    std::string size;
    if (b.size() >= 24 && text_of(b.subspan(12, 4)) == "IHDR")
      size = " (" + group_digits(big_endian32(b, 16)) + " x " + group_digits(big_endian32(b, 20)) + " pixels)";
    return ForeignFile{ForeignFormat::Png, what(ForeignFormat::Png) + size + ", not a model: " +
                                               "a preview or a saved page's image took the model's name; download "
                                               "the model file itself"};
  }
  if (starts_with(b, "\xFF\xD8\xFF")) {
    return ForeignFile{ForeignFormat::Jpeg, what(ForeignFormat::Jpeg) +
                                                ", not a model: a preview or a saved page's "
                                                "image took the model's name; download the "
                                                "model file itself"};
  }
  if (starts_with(b, "\x1f\x8b\x08") && b.size() >= 10 && (b[3] & 0xE0) == 0) {
    std::size_t at = 10;
    if ((b[3] & 4) != 0) at = b.size() >= 12 ? at + 2 + static_cast<std::size_t>(little_endian(b, 10, 2)) : b.size();
    std::string name;
    if ((b[3] & 8) != 0 && at < b.size()) {
      const std::string_view rest = text_of(b.subspan(at));
      const std::size_t end = rest.find('\0');
      if (end != std::string_view::npos) name = " (it holds " + quote_text(rest.substr(0, end)) + ")";
    }
    return ForeignFile{ForeignFormat::Gzip, what(ForeignFormat::Gzip) + name +
                                                ", not safetensors itself: decompress it (gunzip) and open what it "
                                                "holds"};
  }
  return std::nullopt;
}

}  // namespace

bool looks_like_safetensors(std::span<const std::uint8_t> b, std::uint64_t file_size) {
  if (file_size < kLengthPrefixSize || b.size() <= kLengthPrefixSize) return false;
  if (little_endian(b, 0, 8) > kMaxHeaderLength) return false;
  std::size_t i = kLengthPrefixSize;
  while (i < b.size() && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r')) ++i;
  return i < b.size() && b[i] == '{';
}

std::optional<ForeignFile> detect_foreign_format(std::span<const std::uint8_t> file_start, std::uint64_t file_size) {
  const Bytes b = file_start.first(std::min<std::size_t>(file_start.size(), kForeignSniffBytes));
  if (file_size == 0) {
    return ForeignFile{ForeignFormat::Empty, what(ForeignFormat::Empty) +
                                                 " (0 bytes): nothing was written to it (a failed download or "
                                                 "copy); download it again"};
  }
  if (looks_like_safetensors(b, file_size)) return std::nullopt;
  if (auto m = lfs_pointer(b)) return ForeignFile{ForeignFormat::GitLfsPointer, std::move(*m)};
  if (auto m = gguf(b)) return ForeignFile{ForeignFormat::Gguf, std::move(*m)};
  if (auto m = pickle(b)) return ForeignFile{ForeignFormat::Pickle, std::move(*m)};
  if (auto z = zip_archive(b)) return z;
  if (auto f = binary_file(b)) return f;
  return text_file(b);
}

}  // namespace safetensors
