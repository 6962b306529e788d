// Image checks for the card (see card_images.h).
#include "card/card_images.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "simdjson.h"

namespace safetensors {
namespace {

struct ImageFormat {
  std::string_view mime;
  std::string_view magic;  // the first bytes; '?' matches any byte
};

// Magic numbers: PNG (RFC 2083), JPEG (SOI + marker), GIF87a/89a, WebP (RIFF....WEBP).
constexpr ImageFormat kFormats[] = {
    {"image/png", "\x89PNG\r\n\x1a\n"},
    {"image/jpeg", "\xFF\xD8\xFF"},
    {"image/gif", "GIF87a"},
    {"image/gif", "GIF89a"},
    {"image/webp", "RIFF????WEBP"},
};

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// The decoded size of strict base64 (alphabet, length a multiple of 4, '=' only at the
// end), with its first 12 decoded bytes in `head`; nullopt when it is not base64.
std::optional<std::size_t> check_base64(std::string_view b64, std::string& head) {
  if (b64.empty() || b64.size() % 4 != 0) return std::nullopt;
  std::size_t pad = 0;
  if (b64.back() == '=') pad = b64[b64.size() - 2] == '=' ? 2 : 1;
  for (std::size_t i = 0; i < b64.size() - pad; ++i) {
    if (base64_value(b64[i]) < 0) return std::nullopt;
  }
  head.clear();
  for (std::size_t i = 0; i + 4 <= b64.size() && head.size() < 12; i += 4) {
    std::uint32_t v = 0;
    for (std::size_t j = 0; j < 4; ++j)
      v = (v << 6) | static_cast<std::uint32_t>(b64[i + j] == '=' ? 0 : base64_value(b64[i + j]));
    head += static_cast<char>(v >> 16);
    head += static_cast<char>((v >> 8) & 0xFF);
    head += static_cast<char>(v & 0xFF);
  }
  return b64.size() / 4 * 3 - pad;
}

std::optional<std::string_view> sniff(std::string_view head) {
  for (const ImageFormat& f : kFormats) {
    if (head.size() < f.magic.size()) continue;
    bool match = true;
    for (std::size_t i = 0; i < f.magic.size() && match; ++i) match = f.magic[i] == '?' || head[i] == f.magic[i];
    if (match) return f.mime;
  }
  return std::nullopt;
}

class ImageList {
 public:
  // Adds base64 data when it is a known image (of `claimed` type, when given) within limits.
  void add(std::string_view source, std::string_view b64, std::string_view claimed = {}) {
    if (images_.size() >= kMaxImages || b64.size() / 4 * 3 > kMaxImageBytes) return;
    const auto bytes = check_base64(b64, head_);
    if (!bytes || *bytes > kMaxImageBytes || total_ + *bytes > kMaxImagesBytes) return;
    const auto mime = sniff(head_);
    if (!mime || (!claimed.empty() && claimed != *mime)) return;
    total_ += *bytes;
    images_.push_back({std::string(*mime), std::string(source), static_cast<double>(*bytes),
                       "data:" + std::string(*mime) + ";base64," + std::string(b64)});
  }

  std::vector<CardImage> take() { return std::move(images_); }

 private:
  std::vector<CardImage> images_;
  std::size_t total_ = 0;
  std::string head_;
};

}  // namespace

std::vector<CardImage> card_images(const MetadataView& meta) {
  ImageList list;
  if (const auto uri = meta.text("modelspec.thumbnail")) {
    // data:<mime>;base64,<data> (RFC 2397), nothing else.
    constexpr std::string_view kData = "data:", kBase64 = ";base64,";
    const std::size_t comma = uri->find(kBase64);
    if (uri->starts_with(kData) && comma != std::string_view::npos) {
      list.add("modelspec.thumbnail", uri->substr(comma + kBase64.size()),
               uri->substr(kData.size(), comma - kData.size()));
    }
  }
  if (const auto covers = meta.text("ssmd_cover_images")) {
    simdjson::dom::parser parser;
    simdjson::dom::array array;
    if (parser.parse(covers->data(), covers->size()).get(array) == simdjson::SUCCESS) {
      for (auto item : array) {
        std::string_view b64;
        if (item.get(b64) == simdjson::SUCCESS) list.add("ssmd_cover_images", b64);
      }
    }
  }
  return list.take();
}

}  // namespace safetensors
