// The card's Civitai reference (see card_civitai.h).
#include "card/card_civitai.h"

#include <cstddef>

namespace safetensors {
namespace {

constexpr std::string_view kAirPrefix = "urn:air:";
constexpr std::string_view kHost = "civitai.com/";
constexpr std::string_view kSite = "https://civitai.com";
/// Ids longer than this are not Civitai ids (and would not be exact as doubles).
constexpr std::size_t kMaxIdDigits = 15;

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alnum(char c) { return is_digit(c) || (lower(c) >= 'a' && lower(c) <= 'z'); }

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

/// Where `needle` (lowercase) next occurs in `text` from `from` on, ignoring case; npos if nowhere.
std::size_t find_ignoring_case(std::string_view text, std::string_view needle, std::size_t from) {
  for (std::size_t i = from; i + needle.size() <= text.size(); ++i) {
    if (lower(text[i]) == needle[0] && equals_ignoring_case(text.substr(i, needle.size()), needle)) return i;
  }
  return std::string_view::npos;
}

/// A Civitai id: 1 to 15 digits.
bool is_id(std::string_view s) {
  if (s.empty() || s.size() > kMaxIdDigits) return false;
  for (char c : s) {
    if (!is_digit(c)) return false;
  }
  return true;
}

/// The leading digits of `s`.
std::string_view leading_digits(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && is_digit(s[n])) ++n;
  return s.substr(0, n);
}

double id_value(std::string_view digits) {
  double v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  return v;
}

/// Characters an AIR is made of (its segments, '@', '+', the format's '.', huggingface's '/').
bool air_char(char c) {
  return is_alnum(c) || c == ':' || c == '@' || c == '+' || c == '.' || c == '-' || c == '_' || c == '/';
}

/// Characters that end a URL written in text.
bool url_end(char c) {
  return static_cast<unsigned char>(c) <= ' ' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '`' ||
         c == ')' || c == ']' || c == '\\';
}

/// Model and version ids found in one civitai.com URL (`rest`: what follows "civitai.com/").
struct UrlIds {
  std::string_view model;
  std::string_view version;
};

UrlIds url_ids(std::string_view rest) {
  std::size_t end = 0;
  while (end < rest.size() && !url_end(rest[end])) ++end;
  rest = rest.substr(0, end);
  UrlIds ids;
  const auto after = [&](std::string_view path) -> std::string_view {
    if (rest.size() < path.size() || !equals_ignoring_case(rest.substr(0, path.size()), path)) return {};
    const std::string_view digits = leading_digits(rest.substr(path.size()));
    const std::size_t next = path.size() + digits.size();
    // The id must end the path segment ("models/123abc" names nothing).
    if (next < rest.size() && is_alnum(rest[next])) return {};
    return is_id(digits) ? digits : std::string_view{};
  };
  if (const auto id = after("models/"); !id.empty()) {
    ids.model = id;
    const std::size_t query = rest.find('?');
    if (query != std::string_view::npos) {
      const std::size_t at = find_ignoring_case(rest, "modelversionid=", query);
      if (at != std::string_view::npos) {
        const std::string_view digits = leading_digits(rest.substr(at + 15));
        if (is_id(digits)) ids.version = digits;
      }
    }
  } else if (const auto v = after("api/download/models/"); !v.empty()) {
    ids.version = v;
  } else if (const auto m = after("api/v1/models/"); !m.empty()) {
    ids.model = m;
  } else if (const auto mv = after("api/v1/model-versions/"); !mv.empty()) {
    ids.version = mv;
  }
  return ids;
}

}  // namespace

std::optional<Air> parse_air(std::string_view text) {
  if (text.size() < kAirPrefix.size() || !equals_ignoring_case(text.substr(0, kAirPrefix.size()), kAirPrefix)) {
    return std::nullopt;
  }
  std::size_t end = kAirPrefix.size();
  while (end < text.size() && air_char(text[end])) ++end;
  // A sentence may end right after it.
  while (end > kAirPrefix.size() && (text[end - 1] == '.' || text[end - 1] == ':' || text[end - 1] == '/')) --end;
  const std::string_view body = text.substr(kAirPrefix.size(), end - kAirPrefix.size());
  const std::size_t at = body.find('@');
  std::string_view path = body.substr(0, at);
  Air air;
  air.text = std::string(text.substr(0, end));
  if (at != std::string_view::npos) {
    std::string_view version = body.substr(at + 1);
    const std::size_t stop = version.find_first_of("+.:");
    air.version = std::string(version.substr(0, stop));
  } else {
    // Without a version, a file id or a format may follow the id.
    const std::size_t stop = path.find('+');
    path = path.substr(0, stop);
  }
  const std::size_t last = path.rfind(':');
  if (last == std::string_view::npos || last == 0) return std::nullopt;
  const std::size_t before = path.rfind(':', last - 1);
  air.source = std::string(path.substr(before == std::string_view::npos ? 0 : before + 1,
                                       last - (before == std::string_view::npos ? 0 : before + 1)));
  air.id = std::string(path.substr(last + 1));
  if (air.source.empty() || air.id.empty()) return std::nullopt;
  return air;
}

std::optional<CivitaiRef> civitai_ref(const Metadata& metadata, std::span<const EmbeddedHash> hashes) {
  CivitaiRef ref;
  std::string model, version;  // digits
  // AIRs first: an AIR names the model and the version together.
  for (const auto& [key, value] : metadata) {
    for (std::size_t at = find_ignoring_case(value, kAirPrefix, 0); at != std::string_view::npos && !ref.air;
         at = find_ignoring_case(value, kAirPrefix, at + 1)) {
      const std::optional<Air> air = parse_air(std::string_view(value).substr(at));
      if (!air || !equals_ignoring_case(air->source, "civitai") || !is_id(air->id)) continue;
      if (!air->version.empty() && !is_id(air->version)) continue;
      ref.air = air->text;
      model = air->id;
      version = air->version;
    }
    if (ref.air) break;
  }
  // Then civitai.com URLs fill what is missing, when they name the same model.
  for (const auto& [key, value] : metadata) {
    const std::string_view text = value;
    for (std::size_t at = find_ignoring_case(text, kHost, 0); at != std::string_view::npos;
         at = find_ignoring_case(text, kHost, at + 1)) {
      if (at > 0 && (is_alnum(text[at - 1]) || text[at - 1] == '-')) continue;  // another host's name
      const UrlIds ids = url_ids(text.substr(at + kHost.size()));
      if (ids.model.empty() && ids.version.empty()) continue;
      if (!ids.model.empty() && !model.empty() && ids.model != model) continue;
      if (model.empty() && !ids.model.empty()) model = std::string(ids.model);
      if (version.empty() && !ids.version.empty()) version = std::string(ids.version);
    }
  }
  if (!model.empty()) {
    ref.model_id = id_value(model);
    ref.page_url = std::string(kSite) + "/models/" + model;
    if (!version.empty()) *ref.page_url += "?modelVersionId=" + version;
  }
  if (!version.empty()) ref.version_id = id_value(version);
  for (const EmbeddedHash& h : hashes) {
    if (h.covers == HashCover::Data && h.value.size() >= 12) {
      ref.by_hash_url = std::string(kSite) + "/api/v1/model-versions/by-hash/" + h.value.substr(0, 12);
      break;
    }
  }
  if (!ref.air && !ref.model_id && !ref.version_id && !ref.by_hash_url) return std::nullopt;
  return ref;
}

}  // namespace safetensors
