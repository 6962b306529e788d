// Reads the header JSON with simdjson (DOM, error codes) and applies the
// reference's serde rules: HashMetadata { __metadata__: Option<HashMap<String,
// String>>, #[serde(flatten)] tensors: HashMap<String, TensorInfo> }.
#include "format/header_json.h"

#include <algorithm>
#include <optional>

#include "findings/message_text.h"
#include "format/serde_limits.h"
#include "format/serde_numbers.h"
#include "simdjson.h"

namespace safetensors {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

// simdjson counts only non-empty containers and fails at this depth: it passes
// every document serde_json passes, and measure_serde_limits decides the rest.
constexpr std::size_t kMaxJsonDepth = kSerdeMaxDepth + 1;
// A parser kept between calls holds this much header capacity at most.
constexpr std::size_t kKeepParserCapacity = 8u << 20;

bool is_json_space(std::uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

const char* type_name(element_type t) {
  switch (t) {
    case element_type::ARRAY: return "an array";
    case element_type::OBJECT: return "an object";
    case element_type::INT64:
    case element_type::UINT64:
    case element_type::DOUBLE: return "a number";
    case element_type::STRING: return "a string";
    case element_type::BOOL: return "a boolean";
    case element_type::NULL_VALUE: return "null";
  }
  return "a value";
}

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

// Reads an unsigned integer as serde's usize does: JSON integers 0..2^64-1 only.
bool read_u64(element value, std::uint64_t& out) {
  if (value.type() == element_type::UINT64) return !value.get_uint64().get(out);
  std::int64_t signed_value = 0;
  if (value.type() != element_type::INT64 || value.get_int64().get(signed_value)) return false;
  if (signed_value < 0) return false;
  out = static_cast<std::uint64_t>(signed_value);
  return true;
}

// An ignored field's value sits inside the top-level object and the entry.
constexpr std::size_t kIgnoredValueLevel = 3;

class EntryReader {
 public:
  EntryReader(std::string_view name, SerdeLimits& ignored) : name_(name), ignored_(ignored) {}

  bool read(element value, TensorEntry& entry, EntryQuirks& quirks) {
    entry.name = std::string(name_);
    if (value.type() == element_type::ARRAY) {
      quirks.written_as_array = true;
      simdjson::dom::array fields = value.get_array().value_unsafe();
      if (fields.size() != 3)
        return fail("is an array of " + std::to_string(fields.size()) +
                    " values; the accepted array form is [dtype, shape, data_offsets]");
      auto it = fields.begin();
      if (!read_dtype(*it, entry, quirks)) return false;
      if (!read_shape(*++it, entry)) return false;
      return read_offsets(*++it, entry);
    }
    if (value.type() != element_type::OBJECT) {
      return fail(std::string("is ") + type_name(value.type()) + ", not an object with dtype, shape and data_offsets");
    }
    bool seen_dtype = false, seen_shape = false, seen_offsets = false;
    const simdjson::dom::object fields = value.get_object().value_unsafe();
    for (auto field : fields) {
      if (field.key == "dtype") {
        if (seen_dtype) return fail("has the field \"dtype\" twice");
        seen_dtype = true;
        if (!read_dtype(field.value, entry, quirks)) return false;
      } else if (field.key == "shape") {
        if (seen_shape) return fail("has the field \"shape\" twice");
        seen_shape = true;
        if (!read_shape(field.value, entry)) return false;
      } else if (field.key == "data_offsets") {
        if (seen_offsets) return fail("has the field \"data_offsets\" twice");
        seen_offsets = true;
        if (!read_offsets(field.value, entry)) return false;
      } else {
        ++quirks.unknown_fields;
        measure_serde_limits(field.value, kIgnoredValueLevel, ignored_);
      }
    }
    if (!seen_dtype) return fail("has no \"dtype\" field");
    if (!seen_shape) return fail("has no \"shape\" field");
    if (!seen_offsets) return fail("has no \"data_offsets\" field");
    return true;
  }

  const std::string& reason() const { return reason_; }

 private:
  bool fail(const std::string& what) {
    reason_ = "tensor " + quote_name(name_) + " " + what;
    return false;
  }

  // "U8", or the enum-as-map form {"U8": null}.
  bool read_dtype(element value, TensorEntry& entry, EntryQuirks& quirks) {
    std::string_view text;
    if (value.type() == element_type::OBJECT) {
      simdjson::dom::object map = value.get_object().value_unsafe();
      if (map.size() != 1) return fail("has a dtype object that is not {\"NAME\": null}");
      auto only = *map.begin();
      if (!only.value.is_null()) return fail("has a dtype object that is not {\"NAME\": null}");
      quirks.dtype_as_map = true;
      text = only.key;
    } else if (value.get_string().get(text)) {
      return fail(std::string("has a dtype that is ") + type_name(value.type()) + ", not a string");
    }
    auto dtype = parse_dtype(text);
    if (!dtype) {
      return fail("has the unknown dtype " + quote_name(text) +
                  " (names are case-sensitive: F16, BF16, F32, I64, ...)");
    }
    entry.dtype = *dtype;
    return true;
  }

  bool read_shape(element value, TensorEntry& entry) {
    simdjson::dom::array dims;
    if (value.get_array().get(dims)) {
      return fail(std::string("has a shape that is ") + type_name(value.type()) + ", not an array");
    }
    entry.shape.clear();
    entry.shape.reserve(dims.size());
    for (element dim : dims) {
      std::uint64_t d = 0;
      if (!read_u64(dim, d)) {
        return fail("has a shape entry that is not an integer from 0 to 18446744073709551615");
      }
      entry.shape.push_back(d);
    }
    return true;
  }

  bool read_offsets(element value, TensorEntry& entry) {
    simdjson::dom::array pair;
    if (value.get_array().get(pair) || pair.size() != 2) {
      return fail("has data_offsets that are not an array of exactly two integers");
    }
    auto it = pair.begin();
    if (!read_u64(*it, entry.begin) || !read_u64(*++it, entry.end)) {
      return fail("has a data_offsets entry that is not an integer from 0 to 18446744073709551615");
    }
    return true;
  }

  std::string_view name_;
  SerdeLimits& ignored_;
  std::string reason_;
};

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
        return std::string("__metadata__ is ") + type_name(member.value.type()) +
               "; it must be an object whose values are strings, or null";
      }
      out.has_metadata = true;
      for (auto item : map) {
        std::string_view text;
        if (item.value.get_string().get(text)) {
          return "metadata key " + quote_name(item.key) + " has a value that is " + type_name(item.value.type()) +
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
    EntryReader reader(member.key, ignored);
    TensorEntry entry;
    EntryQuirks quirks;
    if (!reader.read(member.value, entry, quirks)) return reader.reason();
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
