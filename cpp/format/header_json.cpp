// Reads the header JSON with simdjson (DOM, error codes) and applies the
// reference's serde rules: HashMetadata { __metadata__: Option<HashMap<String,
// String>>, #[serde(flatten)] tensors: HashMap<String, TensorInfo> }.
#include "format/header_json.h"

#include <algorithm>
#include <optional>

#include "findings/message_text.h"
#include "format/serde_limits.h"
#include "format/serde_numbers.h"
#include "format/tensor_entry_json.h"
#include "simdjson.h"

namespace safetensors {
namespace {

using simdjson::dom::element;

// simdjson counts only non-empty containers and fails at this depth: it passes
// every document serde_json passes, and measure_serde_limits decides the rest.
constexpr std::size_t kMaxJsonDepth = kSerdeMaxDepth + 1;
// A parser kept between calls holds this much header capacity at most.
constexpr std::size_t kKeepParserCapacity = 8u << 20;

bool is_json_space(std::uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string describe_json_error(simdjson::error_code err) {
  switch (err) {
    case simdjson::DEPTH_ERROR:
      return "JSON is nested more than 127 levels deep; the reference's JSON reader stops at 128";
    case simdjson::STRING_ERROR: return "a JSON string has an invalid escape sequence or an unpaired UTF-16 surrogate";
    case simdjson::UNESCAPED_CHARS:
      return "a JSON string contains a raw control character (U+0000 to U+001F); these must be escaped";
    case simdjson::UNCLOSED_STRING: return "a JSON string is not closed";
    case simdjson::NUMBER_ERROR:
    case simdjson::BIGINT_ERROR: return "a JSON number is malformed or too large for a 64-bit float";
    case simdjson::EMPTY: return "the header holds no JSON value";
    default:
      return "JSON syntax error (a missing or extra comma, colon, bracket or brace, an unknown word, "
             "or text after the closing brace)";
  }
}

std::string out_of_range_reason(std::string_view literal) {
  return "the number " + std::string(literal) +
         " is out of range as the reference's JSON reader (serde_json) computes it";
}

HeaderJsonResult failure(std::string reason) {
  HeaderJsonResult result;
  result.reason = std::move(reason);
  return result;
}

// Reads the parsed document into `out`; returns the reason on failure. `ignored` gets
// what the values of ignored fields hold (the only places serde_json's depth and
// number limits can bite once the rest has the expected shape).
std::optional<std::string> read_document(element root, ParsedHeader& out, SerdeLimits& ignored) {
  simdjson::dom::object top;
  if (root.get_object().get(top)) return "the header's JSON is not an object";
  bool seen_metadata = false;
  for (auto member : top) {
    if (member.key == "__metadata__") {
      if (seen_metadata) return "the header has the key \"__metadata__\" twice";
      seen_metadata = true;
      if (member.value.is_null()) continue;
      simdjson::dom::object map;
      if (member.value.get_object().get(map)) {
        return std::string("__metadata__ is ") + json_type_name(member.value.type()) +
               "; it must be an object whose values are strings, or null";
      }
      out.has_metadata = true;
      for (auto item : map) {
        std::string_view text;
        if (item.value.get_string().get(text)) {
          return "metadata key " + quote_name(item.key) + " has a value that is " + json_type_name(item.value.type()) +
                 "; every __metadata__ value must be a string";
        }
        out.metadata.emplace_back(std::string(item.key), std::string(text));
      }
      continue;
    }
    if (out.tensors.empty()) {
      out.tensors.reserve(top.size());
      out.quirks.reserve(top.size());
    }
    TensorEntry entry;
    EntryQuirks quirks;
    if (auto reason = read_tensor_entry(member.key, member.value, entry, quirks, ignored)) return reason;
    out.tensors.push_back(std::move(entry));
    out.quirks.push_back(quirks);
  }
  return std::nullopt;
}

}  // namespace

std::size_t json_padding() { return simdjson::SIMDJSON_PADDING; }

HeaderJsonResult parse_header_json(std::span<const std::uint8_t> header, bool padded) {
  std::size_t begin = 0, end = header.size();
  while (begin < end && is_json_space(header[begin])) ++begin;
  while (end > begin && is_json_space(header[end - 1])) --end;
  if (begin == end) return failure("the header is empty: it holds only whitespace, not a JSON object");
  if (header[begin] != '{') {
    const bool bom =
        end - begin >= 3 && header[begin] == 0xEF && header[begin + 1] == 0xBB && header[begin + 2] == 0xBF;
    return failure(bom ? "the header starts with a UTF-8 byte-order mark, which the reference rejects"
                       : "the header is not a JSON object (it does not start with '{')");
  }
  const std::string_view text(reinterpret_cast<const char*>(header.data()) + begin, end - begin);

  static simdjson::dom::parser parser;  // reused: allocation dominates small headers
  // allocate() reallocates whenever the capacity differs, so only grow (parse() also grows).
  if (parser.max_depth() != kMaxJsonDepth || parser.capacity() < text.size()) {
    if (parser.allocate(std::max(text.size(), parser.capacity()), kMaxJsonDepth) != simdjson::SUCCESS) {
      HeaderJsonResult oom;
      oom.outcome = JsonOutcome::OutOfMemory;
      return oom;
    }
  }
  // Numbers: simdjson reads them correctly rounded, serde_json by its own steps.
  // Their readings differ only for -0, integers past 64 bits and magnitudes near
  // DBL_MAX; the audit (a second pass over the text) runs only when one may be there.
  std::optional<NumberAudit> audit;
  if (may_contain_negative_zero(text)) audit = audit_serde_numbers(text);
  auto parse = [&](element& root) {
    if (audit && audit->rewritten) return parser.parse(*audit->rewritten).get(root);
    return parser.parse(text.data(), text.size(), !padded).get(root);
  };
  element root;
  simdjson::error_code err = simdjson::SUCCESS;
  if (!audit || audit->out_of_range.empty()) err = parse(root);
  if ((err == simdjson::BIGINT_ERROR || err == simdjson::NUMBER_ERROR) && !audit) {
    audit = audit_serde_numbers(text);
    if (audit->out_of_range.empty() && audit->rewritten) err = parse(root);
  }
  HeaderJsonResult result;
  result.leading_space = begin;
  result.trailing_space = header.size() - end;
  SerdeLimits ignored;
  if (audit && !audit->out_of_range.empty()) {
    result.reason = out_of_range_reason(audit->out_of_range);
  } else if (err == simdjson::MEMALLOC) {
    result.outcome = JsonOutcome::OutOfMemory;
  } else if (err) {
    result.reason = describe_json_error(err);
  } else if (auto reason = read_document(root, result.header, ignored)) {
    result.reason = std::move(*reason);
  } else if (ignored.depth > kSerdeMaxDepth) {
    result.reason = describe_json_error(simdjson::DEPTH_ERROR);
  } else if (ignored.edge_float && !audit && !(audit = audit_serde_numbers(text))->out_of_range.empty()) {
    result.reason = out_of_range_reason(audit->out_of_range);
  } else {
    result.outcome = JsonOutcome::Parsed;
  }
  if (parser.capacity() > kKeepParserCapacity) parser = simdjson::dom::parser{};
  return result;
}

}  // namespace safetensors
