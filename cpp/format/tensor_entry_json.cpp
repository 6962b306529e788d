// One tensor's entry of the header JSON, read as serde reads the reference's TensorInfo
// (see tensor_entry_json.h).
#include "format/tensor_entry_json.h"

#include "findings/message_text.h"
#include "format/dtype.h"

namespace safetensors {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

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
      return fail(std::string("is ") + json_type_name(value.type()) +
                  ", not an object with dtype, shape and data_offsets");
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
      return fail(std::string("has a dtype that is ") + json_type_name(value.type()) + ", not a string");
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
      return fail(std::string("has a shape that is ") + json_type_name(value.type()) + ", not an array");
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

}  // namespace

const char* json_type_name(element_type t) {
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

std::optional<std::string> read_tensor_entry(std::string_view name, element value, TensorEntry& entry,
                                             EntryQuirks& quirks, SerdeLimits& ignored) {
  EntryReader reader(name, ignored);
  if (reader.read(value, entry, quirks)) return std::nullopt;
  return reader.reason();
}

}  // namespace safetensors
