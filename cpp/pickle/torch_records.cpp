// Reads torch's rebuild calls as tensor descriptions (torch_records.h). A walk from the root
// through dicts, lists, tuples, OrderedDicts (calls with SETITEM items) and BUILD states;
// depth and visits are bounded, as a pickle can share one value many times over.
#include "pickle/torch_records.h"

#include <optional>
#include <string>

namespace safetensors::pickle {
namespace {

constexpr int kMaxDepth = 200;
const Value* str_value(const PickleResult& p, ValueId v) {
  return v < p.values.size() && p.at(v).kind == Kind::Str ? &p.at(v) : nullptr;
}

std::optional<std::int64_t> int_value(const PickleResult& p, ValueId v) {
  if (v >= p.values.size() || (p.at(v).kind != Kind::Int && p.at(v).kind != Kind::Bool)) return std::nullopt;
  return p.at(v).integer;
}

// A tuple or list of ints, or torch.Size((...)).
std::optional<std::vector<std::int64_t>> ints_value(const PickleResult& p, ValueId v) {
  if (v >= p.values.size()) return std::nullopt;
  const Value& val = p.at(v);
  if (val.kind == Kind::Call && val.items.size() >= 2 && is_global(p, val.items[0], "torch", "Size")) {
    const Value& args = p.at(val.items[1]);
    if (args.kind != Kind::Tuple || args.items.size() != 1) return std::nullopt;
    return ints_value(p, args.items[0]);
  }
  if (val.kind != Kind::Tuple && val.kind != Kind::List) return std::nullopt;
  std::vector<std::int64_t> out;
  for (ValueId item : val.items) {
    auto i = int_value(p, item);
    if (!i) return std::nullopt;
    out.push_back(*i);
  }
  return out;
}

std::string key_text(const PickleResult& p, ValueId key) {
  if (const Value* s = str_value(p, key)) return s->text;
  if (auto i = int_value(p, key)) return std::to_string(*i);
  return "?";
}

class Walker {
 public:
  // Visits are linear in the values: a shared value is walked a few times, not exponentially often.
  explicit Walker(const PickleResult& p) : p_(p), max_visits_(4 * p.values.size() + 1000) {}
  TorchContents out;

  void walk(ValueId v, const std::string& path, int depth) {
    if (v >= p_.values.size() || stopped_) return;
    if (++visits_ > max_visits_) return stop(TensorIssue::WalkLimit, path);
    if (depth > kMaxDepth) return stop(TensorIssue::TooDeep, path);
    const Value& val = p_.at(v);
    switch (val.kind) {
      case Kind::Dict: return walk_pairs(val.items, path, depth);
      case Kind::List:
      case Kind::Tuple:
        for (std::size_t i = 0; i < val.items.size(); ++i) walk(val.items[i], join(path, std::to_string(i)), depth + 1);
        return;
      case Kind::Call: return walk_call(v, path, depth);
      case Kind::None:
      case Kind::Bool:
      case Kind::Int:
      case Kind::Float:
      case Kind::Str:
        if (out.objects.size() < kMaxObjects)
          out.objects.push_back({path, v});
        else
          ++out.objects_left_out;
        return;
      default: return;
    }
  }

 private:
  static std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }

  void stop(TensorIssue issue, const std::string& path) {
    out.findings.push_back({issue, path});
    stopped_ = true;
  }

  void walk_pairs(const std::vector<ValueId>& items, const std::string& path, int depth) {
    for (std::size_t i = 0; i + 1 < items.size(); i += 2)
      walk(items[i + 1], join(path, key_text(p_, items[i])), depth + 1);
  }

  void walk_call(ValueId v, const std::string& path, int depth) {
    const Value& call = p_.at(v);
    const ValueId fn = call.items[0];
    const Value& args = p_.at(call.items[1]);
    const bool tuple_args = args.kind == Kind::Tuple;
    if (tuple_args && (is_global(p_, fn, "torch._utils", "_rebuild_parameter") ||
                       is_global(p_, fn, "torch._utils", "_rebuild_parameter_with_state"))) {
      const std::size_t before = out.tensors.size();
      if (!args.items.empty()) walk(args.items[0], path, depth + 1);
      if (out.tensors.size() == before + 1) {
        out.tensors.back().parameter = true;
        if (args.items.size() > 1) out.tensors.back().requires_grad = int_value(p_, args.items[1]).value_or(0) != 0;
      }
      return;
    }
    if (tuple_args && args.items.size() >= 3 && is_global(p_, fn, "torch._tensor", "_rebuild_from_type_v2")) {
      const Value& inner = p_.at(args.items[2]);
      if (inner.kind != Kind::Tuple) return;
      read_tensor(v, args.items[0], inner, path);
      return;
    }
    if (tuple_args && read_tensor(v, fn, args, path)) return;
    if (other_rebuild(fn)) return out.findings.push_back({TensorIssue::OtherTensor, path});
    if (!call.appended) walk_pairs(call.extra, path, depth);
    if (call.state != kNoValue) walk(call.state, path, depth + 1);
  }

  // Another of torch's rebuild functions (torch/_utils.py: _rebuild_qtensor,
  // _rebuild_sparse_tensor, _rebuild_meta_tensor_no_storage, ...): a tensor not read here.
  bool other_rebuild(ValueId fn) const {
    if (fn >= p_.values.size()) return false;
    const Value& g = p_.at(fn);
    return g.kind == Kind::Global && (g.text == "torch._utils" || g.text == "torch._tensor") &&
           g.name.starts_with("_rebuild_");
  }

  // _rebuild_tensor(storage, offset, size, stride), _v2(..., requires_grad, hooks[, metadata]),
  // _v3(..., requires_grad, hooks, dtype[, metadata]), and a quantized tensor's
  // _rebuild_qtensor(..., quantizer_params, requires_grad, hooks): its storage holds the integer
  // representation, its dtype (qint8, ...) the storage class's. True when `fn` is one of them.
  bool read_tensor(ValueId call, ValueId fn, const Value& args, const std::string& path) {
    const bool v1 = is_global(p_, fn, "torch._utils", "_rebuild_tensor");
    const bool v2 = is_global(p_, fn, "torch._utils", "_rebuild_tensor_v2");
    const bool v3 = is_global(p_, fn, "torch._utils", "_rebuild_tensor_v3");
    const bool quantized = is_global(p_, fn, "torch._utils", "_rebuild_qtensor");
    if (!v1 && !v2 && !v3 && !quantized) return false;
    const std::size_t need = v1 ? 4 : v2 ? 6 : 7;
    auto bad = [&](TensorIssue issue) {
      out.findings.push_back({issue, path});
      return true;
    };
    if (args.items.size() < need) return bad(TensorIssue::BadArguments);
    TensorRecord t;
    t.name = path;
    t.value = call;
    auto offset = int_value(p_, args.items[1]);
    auto size = ints_value(p_, args.items[2]);
    auto stride = ints_value(p_, args.items[3]);
    if (!offset || *offset < 0 || !size || !stride || size->size() != stride->size())
      return bad(TensorIssue::BadArguments);
    t.storage_offset = static_cast<std::uint64_t>(*offset);
    t.size = std::move(*size);
    t.stride = std::move(*stride);
    if (!v1) t.requires_grad = int_value(p_, args.items[quantized ? 5 : 4]).value_or(0) != 0;
    std::optional<TorchDtype> explicit_dtype;
    if (v3) {
      const Value& d = p_.at(args.items[6]);
      if (d.kind != Kind::Global || d.text != "torch") return bad(TensorIssue::UnknownStorage);
      explicit_dtype = torch_dtype_from_name(d.name);
      if (!explicit_dtype) return bad(TensorIssue::UnknownStorage);
    }
    // The storage: PersId(('storage', torch.<Class>, key, location, numel[, view]))
    const Value& pid = p_.at(args.items[0]);
    if (pid.kind != Kind::PersId) return bad(TensorIssue::BadArguments);
    const Value& id = p_.at(pid.items[0]);
    if (id.kind != Kind::Tuple || id.items.size() < 5) return bad(TensorIssue::BadArguments);
    const Value* tag = str_value(p_, id.items[0]);
    const Value& cls = p_.at(id.items[1]);
    auto numel = int_value(p_, id.items[4]);
    if (!tag || tag->text != "storage" || cls.kind != Kind::Global || !numel || *numel < 0)
      return bad(TensorIssue::BadArguments);
    t.storage_key = key_text(p_, id.items[2]);
    if (const Value* loc = str_value(p_, id.items[3])) t.location = loc->text;
    t.storage_numel = static_cast<std::uint64_t>(*numel);
    if (cls.text == "torch" && cls.name == "UntypedStorage") {
      if (!explicit_dtype) return bad(TensorIssue::UnknownStorage);
      t.numel_in_bytes = true;
      t.dtype = *explicit_dtype;
    } else {
      auto typed = cls.text == "torch" ? torch_dtype_from_storage(cls.name) : std::nullopt;
      if (!typed) return bad(TensorIssue::UnknownStorage);
      t.dtype = explicit_dtype.value_or(*typed);
    }
    out.tensors.push_back(std::move(t));
    return true;
  }

  const PickleResult& p_;
  std::uint64_t max_visits_;
  std::uint64_t visits_ = 0;
  bool stopped_ = false;
};

}  // namespace

bool is_global(const PickleResult& pickle, ValueId v, std::string_view module, std::string_view name) {
  if (v >= pickle.values.size()) return false;
  const Value& val = pickle.at(v);
  return val.kind == Kind::Global && val.text == module && val.name == name;
}

TorchContents read_torch_tensors(const PickleResult& pickle) {
  Walker walker(pickle);
  walker.walk(pickle.root, "", 0);
  return std::move(walker.out);
}

}  // namespace safetensors::pickle
