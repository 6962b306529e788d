// Text formats under a .safetensors name (see text_formats.h).
#include "analysis/text_formats.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "findings/message_text.h"

namespace safetensors {

using namespace sniff;

namespace {

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

}  // namespace

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

}  // namespace safetensors
