// A walk over a parsed header for serde_json's depth and number limits.
#include "format/serde_limits.h"

#include <cmath>

#include "format/serde_number.h"

namespace safetensors {

using simdjson::dom::element;
using simdjson::dom::element_type;

void measure_serde_limits(element value, std::size_t level, SerdeLimits& limits) {
  switch (value.type()) {
    case element_type::ARRAY: {
      if (level > limits.depth) limits.depth = level;
      const simdjson::dom::array items = value.get_array().value_unsafe();  // keep: value_unsafe() is a reference
      for (element child : items) measure_serde_limits(child, level + 1, limits);
      break;
    }
    case element_type::OBJECT: {
      if (level > limits.depth) limits.depth = level;
      const simdjson::dom::object fields = value.get_object().value_unsafe();
      for (auto field : fields) measure_serde_limits(field.value, level + 1, limits);
      break;
    }
    case element_type::DOUBLE:
      if (std::fabs(value.get_double().value_unsafe()) >= kSerdeEdgeMagnitude) limits.edge_float = true;
      break;
    default: break;
  }
}

}  // namespace safetensors
