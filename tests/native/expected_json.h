// Test helpers for the checkpoints' expectation files (tests/checkpoints/*.json): simdjson
// without exceptions, a field's value or a failed test and a default.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "checkpoint_source.h"
#include "simdjson.h"

namespace safetensors::testing {

/// @brief tests/checkpoints/<name> parsed (again on each call, by that file's own parser).
inline simdjson::dom::element checkpoints_json(const std::string& name) {
  static std::map<std::string, std::pair<simdjson::dom::parser, std::string>> files;
  auto& [parser, text] = files[name];
  if (text.empty()) text = file_bytes(checkpoints_dir() / name);
  simdjson::dom::element root;
  EXPECT_EQ(parser.parse(text).get(root), simdjson::SUCCESS);
  return root;
}

/// @brief The value of `e`, or a failed test and a default.
template <typename T>
T get(simdjson::simdjson_result<simdjson::dom::element> e) {
  T out{};
  EXPECT_EQ(e.get(out), simdjson::SUCCESS);
  return out;
}

/// @brief The value of `e`, or a failed test and a default.
template <typename T>
T get(simdjson::dom::element e) {
  T out{};
  EXPECT_EQ(e.get(out), simdjson::SUCCESS);
  return out;
}

/// @brief The tensors read, by name.
inline std::map<std::string, const pickle::TensorRecord*> tensors_by_name(const pickle::TorchContents& contents) {
  std::map<std::string, const pickle::TensorRecord*> out;
  for (const auto& t : contents.tensors) out[t.name] = &t;
  return out;
}

/// @brief An array of integers (a shape, a stride).
inline std::vector<std::int64_t> ints(simdjson::simdjson_result<simdjson::dom::element> e) {
  std::vector<std::int64_t> out;
  for (simdjson::dom::element v : get<simdjson::dom::array>(e)) out.push_back(get<std::int64_t>(v));
  return out;
}

/// @brief Expects tensor `name` to be what `fact` says: dtype, shape, stride, storage offset,
/// Parameter or not.
inline void expect_tensor_facts(const pickle::TensorRecord& t, simdjson::dom::element fact, const std::string& name) {
  EXPECT_EQ(pickle::torch_dtype_info(t.dtype).name, get<std::string_view>(fact["dtype"])) << name;
  EXPECT_EQ(t.size, ints(fact["shape"])) << name;
  EXPECT_EQ(t.stride, ints(fact["stride"])) << name;
  EXPECT_EQ(static_cast<std::int64_t>(t.storage_offset), get<std::int64_t>(fact["storage_offset"])) << name;
  EXPECT_EQ(t.parameter, get<bool>(fact["parameter"])) << name;
}

}  // namespace safetensors::testing
