// One sniffer per format, each checking the format's own signature (the spec named beside it)
// and reading what the first bytes say about the file, bounds-checked within the window.
#include "analysis/foreign_format.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "findings/message_text.h"
#include "format/header_prefix.h"
#include "format/utf8.h"

namespace safetensors {
namespace {

using Bytes = std::span<const std::uint8_t>;

std::string_view text_of(Bytes b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

bool starts_with(Bytes b, std::string_view prefix) { return text_of(b).starts_with(prefix); }

std::uint64_t little_endian(Bytes b, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | b[at + static_cast<std::size_t>(i)];
  return v;
}

std::uint32_t big_endian32(Bytes b, std::size_t at) {
  return static_cast<std::uint32_t>(b[at]) << 24 | static_cast<std::uint32_t>(b[at + 1]) << 16 |
         static_cast<std::uint32_t>(b[at + 2]) << 8 | b[at + 3];
}

// Where text starts: after a UTF-8 byte order mark and ASCII whitespace.
std::size_t text_start(Bytes b) {
  std::size_t i = starts_with(b, "\xEF\xBB\xBF") ? 3 : 0;
  while (i < b.size() && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r')) ++i;
  return i;
}

std::string lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A name or title from the file, quoted (quote_name) up to its first byte that is not UTF-8:
// messages cross to JavaScript as UTF-8 text, and these bytes are anyone's.
std::string quote_text(std::string_view raw) {
  const auto bad = find_invalid_utf8({reinterpret_cast<const std::uint8_t*>(raw.data()), raw.size()});
  return quote_name(raw.substr(0, bad.value_or(raw.size())));
}

std::string what(ForeignFormat f) { return "this is " + std::string(foreign_format_info(f).label); }

constexpr std::string_view kDoNotUnpickle =
    "; a pickle can run any code when it is loaded, so do not load it if it came from someone you do not trust. "
    "Where loading it is safe, convert it with the reference's converter (convert.py in huggingface/safetensors) "
    "or safetensors.torch.save_file";

// Git LFS pointer (git-lfs/git-lfs docs/spec.md): "version <url>\n" first, then sorted
// "key value" lines, among them "oid sha256:<64 hex>" and "size <bytes>".
std::optional<std::string> lfs_pointer(Bytes b) {
  const std::string_view t = text_of(b);
  if (!t.starts_with("version https://git-lfs.github.com/spec/v1") &&
      !t.starts_with("version https://hawser.github.com/spec/v1"))
    return std::nullopt;
  std::string oid, size;
  for (std::size_t at = 0; at < t.size() && at < 1024;) {  // pointers are under 1024 bytes
    std::size_t end = t.find('\n', at);
    if (end == std::string_view::npos) end = t.size();
    std::string_view line = t.substr(at, end - at);
    if (line.ends_with('\r')) line.remove_suffix(1);
    const auto hex = [](std::string_view s) {
      return std::all_of(s.begin(), s.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
    };
    std::uint64_t bytes = 0;
    if (line.starts_with("oid sha256:") && line.size() == 11 + 64 && hex(line.substr(11))) oid = line.substr(11);
    if (line.starts_with("size ") && line.size() > 5) {
      const auto [end_of_number, ec] = std::from_chars(line.data() + 5, line.data() + line.size(), bytes);
      if (ec == std::errc() && end_of_number == line.data() + line.size()) size = count_bytes(bytes);
    }
    at = end + 1;
  }
  std::string named = size.empty() ? "" : size;
  if (!oid.empty()) named += (named.empty() ? "oid sha256:" : ", oid sha256:") + oid;
  return what(ForeignFormat::GitLfsPointer) + ", not the model: the real file" +
         (named.empty() ? "" : " (" + named + ")") +
         " was never downloaded, only the small text that stands for it in the repository. In a clone, run "
         "`git lfs install` once and then `git lfs pull`; or download the file itself from where the repository is "
         "hosted";
}

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

// Text: an HTML page, or JSON (an index, a diffusers model_index.json, a config).
std::optional<ForeignFile> text_file(Bytes b) {
  const std::size_t at = text_start(b);
  const std::string_view t = text_of(b).substr(at);
  const std::string lower = lowercase(t.substr(0, 512));
  const bool tag = lower.starts_with("<!doctype html") || lower.starts_with("<html") || lower.starts_with("<head") ||
                   lower.starts_with("<body") || lower.starts_with("<title") || lower.starts_with("<meta");
  if (tag || (lower.starts_with("<") && lowercase(t).find("<html") != std::string::npos)) {
    std::string title;
    const std::string all = lowercase(t);
    const std::size_t open = all.find("<title>");
    const std::size_t close = open == std::string::npos ? open : all.find("</title>", open);
    if (close != std::string::npos) title = " (titled " + quote_text(t.substr(open + 7, close - open - 7)) + ")";
    return ForeignFile{ForeignFormat::Html,
                       what(ForeignFormat::Html) + title +
                           ", not the model: a web page (an error, a sign-in or the model's own page) was saved "
                           "instead of the file. Download the file's direct link (on Hugging Face /resolve/, not "
                           "/blob/); for a gated model, sign in and accept its terms first"};
  }
  if (!(t.starts_with("{") || t.starts_with("["))) return std::nullopt;
  // What may follow: a key or the end in an object; any value in an array.
  const std::size_t next = text_start(b.subspan(at + 1)) + at + 1;
  const std::string_view follows = t[0] == '{' ? "\"}" : "\"{[]-0123456789tfn";
  if (next < b.size() && follows.find(static_cast<char>(b[next])) == std::string_view::npos) return std::nullopt;
  std::string kind = what(ForeignFormat::Json) + ", not a model: ";
  if (t.find("\"weight_map\"") != std::string_view::npos) {
    kind +=
        "a sharded checkpoint's index (*.safetensors.index.json), which lists the shards holding the tensors. "
        "Open it with openSafetensorsIndex (the CLI's validate and inspect take it as it is)";
  } else if (t.find("\"_class_name\"") != std::string_view::npos) {
    kind += "a diffusers pipeline's model_index.json. Open its folder with openSafetensorsPipeline";
  } else {
    kind += "the weights are in a .safetensors file (or an index of shards) beside it";
  }
  return ForeignFile{ForeignFormat::Json, kind};
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
