// torch's tensors as the pickle describes them, read without running anything: the calls of
// torch._utils._rebuild_tensor / _v2 / _v3, _rebuild_qtensor and _rebuild_parameter(_with_state)
// (argument order from torch/_utils.py) over the persistent ids torch.save writes for storages
// (('storage', storage class, key, location, numel[, view metadata]) from the persistent_id
// of torch/serialization.py). Names are the dict keys on the way there, joined with dots.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pickle/pickle_machine.h"
#include "pickle/torch_dtypes.h"

namespace safetensors::pickle {

/// @brief One tensor: where its bytes are and how to read them (sizes in elements).
struct TensorRecord {
  std::string name;                  ///< dotted path from the root, e.g. "state_dict.fc.weight"
  std::string storage_key;           ///< the zip record archive/data/<key> (legacy: the key)
  std::string location;              ///< e.g. "cpu", "cuda:0"
  TorchDtype dtype = 0;              ///< row of kTorchDtypes
  std::uint64_t storage_numel = 0;   ///< the storage's length as the id gives it
  bool numel_in_bytes = false;       ///< UntypedStorage: storage_numel counts bytes
  std::uint64_t storage_offset = 0;  ///< in elements
  std::vector<std::int64_t> size;    ///< shape
  std::vector<std::int64_t> stride;  ///< in elements
  bool parameter = false;            ///< wrapped by _rebuild_parameter(_with_state)
  bool requires_grad = false;        ///< the flag saved
  ValueId value = kNoValue;          ///< the rebuild call in the arena
};

/// @brief Why a rebuild call was not read as a tensor.
enum class TensorIssue : std::uint8_t {
  BadArguments,    ///< the arguments are not what torch writes (types, count)
  UnknownStorage,  ///< the storage class or dtype is not in kTorchDtypes
  TooDeep,         ///< the values nest deeper than the walk follows
  WalkLimit,       ///< more values visited than the walk allows (shared values)
  OtherTensor,     ///< another torch rebuild (quantized, sparse, ...): a tensor with no strided storage view
};

/// @brief A TensorIssue's stable name and what it means.
struct TensorIssueInfo {
  std::string_view name;     ///< e.g. "bad-tensor-arguments"
  std::string_view message;  ///< plain words
};

/// @brief The table, indexed by TensorIssue.
inline constexpr std::array<TensorIssueInfo, 5> kTensorIssues{{
    {"bad-tensor-arguments", "a tensor rebuild call with arguments torch does not write"},
    {"unknown-storage", "a tensor of a storage class or dtype not known"},
    {"too-deep", "the values nest deeper than the reader follows"},
    {"walk-limit", "the values are shared more often than the reader follows"},
    {"other-tensor", "a tensor that is not a strided view of one storage (quantized, sparse, ...): not read"},
}};

/// @brief One such problem, at the value it concerns.
struct TensorFinding {
  TensorIssue issue;  ///< what
  std::string name;   ///< the dotted path
};

/// @brief A plain value met on the way (None, bool, int, float, str): `epoch`, `global_step`, ...
struct ObjectRecord {
  std::string name;  ///< the dotted path
  ValueId value;     ///< in the arena
};

/// @brief The most ObjectRecords kept; more are counted in objects_left_out.
inline constexpr std::size_t kMaxObjects = 4096;

/// @brief Everything read.
struct TorchContents {
  std::vector<TensorRecord> tensors;    ///< in the order met
  std::vector<TensorFinding> findings;  ///< calls that looked like tensors and were not
  std::vector<ObjectRecord> objects;    ///< plain values, in the order met (at most kMaxObjects)
  std::uint64_t objects_left_out = 0;   ///< plain values past kMaxObjects
};

/// @brief Reads the tensors reachable from `pickle.root`.
TorchContents read_torch_tensors(const PickleResult& pickle);

/// @brief Whether `v` is the global `module.name`.
bool is_global(const PickleResult& pickle, ValueId v, std::string_view module, std::string_view name);

}  // namespace safetensors::pickle
