// The safe and unsafe global tables (global_safety.h) and the classification.
#include "scan/global_safety.h"

#include <array>

namespace safetensors::scan {
namespace {

// torch/_weights_only_unpickler.py, _get_allowed_globals() and _tensor_rebuild_functions():
// the named classes and functions, every dtype (str(dtype) of _dtype_to_storage_type_map(),
// _new_dtypes(), uint1-7 and int1-7), the CPU tensor and storage classes (torch._tensor_classes,
// torch._storage_classes) and the quantization schemes.
constexpr std::array kSafe{
    GlobalRule{"collections", "OrderedDict Counter"},
    GlobalRule{"torch.nn.parameter", "Parameter"},
    GlobalRule{"torch.serialization", "_get_layout"},
    GlobalRule{"torch", "Size Tensor device"},
    GlobalRule{"_codecs", "encode"},
    GlobalRule{"builtins", "bytearray set complex"},
    GlobalRule{"torch",
               "float64 float32 float16 bfloat16 int64 int32 int16 int8 uint8 bool complex64 complex128 qint8 quint8 "
               "qint32 quint4x2 quint2x4 float8_e5m2 float8_e4m3fn float8_e5m2fnuz float8_e4m3fnuz float8_e8m0fnu "
               "float4_e2m1fn_x2 bits8 bits16 bits1x8 bits2x4 bits4x2 complex32 uint16 uint32 uint64 uint1 uint2 "
               "uint3 uint4 uint5 uint6 uint7 int1 int2 int3 int4 int5 int6 int7"},
    GlobalRule{"torch",
               "DoubleTensor FloatTensor HalfTensor BFloat16Tensor LongTensor IntTensor ShortTensor CharTensor "
               "ByteTensor BoolTensor ComplexFloatTensor ComplexDoubleTensor"},
    GlobalRule{"torch",
               "DoubleStorage FloatStorage HalfStorage BFloat16Storage LongStorage IntStorage ShortStorage "
               "CharStorage ByteStorage BoolStorage ComplexFloatStorage ComplexDoubleStorage QInt8Storage "
               "QUInt8Storage QInt32Storage QUInt4x2Storage QUInt2x4Storage UntypedStorage"},
    GlobalRule{"torch.storage", "TypedStorage"},
    GlobalRule{"torch",
               "per_tensor_affine per_tensor_symmetric per_channel_affine per_channel_symmetric "
               "per_channel_affine_float_qparams"},
    GlobalRule{"torch._utils",
               "_rebuild_parameter _rebuild_parameter_with_state _rebuild_qtensor _rebuild_tensor _rebuild_tensor_v2 "
               "_rebuild_tensor_v3 _rebuild_sparse_tensor _rebuild_meta_tensor_no_storage _rebuild_nested_tensor "
               "_rebuild_wrapper_subclass _rebuild_device_tensor_from_numpy _rebuild_device_tensor_from_cpu_tensor"},
    GlobalRule{"torch._tensor", "_rebuild_from_type_v2"},
};

// picklescan src/picklescan/scanner.py _unsafe_globals; modelscan modelscan/settings.py
// unsafe_globals (adds builtins.__import__, aiohttp.client); torch's _blocklisted_modules
// (sys, os, posix, nt), which no allowlist can admit.
constexpr std::array kUnsafe{
    GlobalRule{"builtins", "eval compile getattr apply exec open breakpoint __import__"},
    GlobalRule{"cloudpickle.cloudpickle",
               "_builtin_type _make_function _function_setstate _make_cell _make_empty_cell subimport"},
    GlobalRule{"types", "CodeType"},
    GlobalRule{"aiohttp", "*"},
    GlobalRule{"asyncio", "*"},
    GlobalRule{"bdb", "*"},
    GlobalRule{"commands", "*"},
    GlobalRule{"ctypes", "*"},
    GlobalRule{"functools", "partial"},
    GlobalRule{"httplib", "*"},
    GlobalRule{"logging", "FileHandler"},
    GlobalRule{"_io", "FileIO"},
    GlobalRule{"numpy.f2py", "*"},
    GlobalRule{"numpy.testing._private.utils", "*"},
    GlobalRule{"nt", "*"},
    GlobalRule{"posix", "*"},
    GlobalRule{"_operator", "attrgetter itemgetter methodcaller"},
    GlobalRule{"operator", "attrgetter itemgetter methodcaller"},
    GlobalRule{"os", "*"},
    GlobalRule{"requests.api", "*"},
    GlobalRule{"runpy", "*"},
    GlobalRule{"shutil", "*"},
    GlobalRule{"socket", "*"},
    GlobalRule{"ssl", "*"},
    GlobalRule{"subprocess", "*"},
    GlobalRule{"sys", "*"},
    GlobalRule{"code", "InteractiveInterpreter.runcode"},
    GlobalRule{"cProfile", "*"},
    GlobalRule{"distutils.file_util", "*"},
    GlobalRule{"doctest", "debug_script"},
    GlobalRule{"ensurepip", "_run_pip"},
    GlobalRule{"idlelib.autocomplete", "AutoComplete.get_entity AutoComplete.fetch_completions"},
    GlobalRule{"idlelib.calltip", "Calltip.fetch_tip get_entity"},
    GlobalRule{"idlelib.debugobj", "ObjectTreeItem.SetText"},
    GlobalRule{"idlelib.pyshell", "ModifiedInterpreter.runcode ModifiedInterpreter.runcommand"},
    GlobalRule{"idlelib.run", "Executive.runcode"},
    GlobalRule{"imaplib", "IMAP4_stream"},
    GlobalRule{"lib2to3.pgen2.grammar", "Grammar.loads"},
    GlobalRule{"lib2to3.pgen2.pgen", "ParserGenerator.make_label"},
    GlobalRule{"pdb", "*"},
    GlobalRule{"pickle", "*"},
    GlobalRule{"_pickle", "*"},
    GlobalRule{"pip", "*"},
    GlobalRule{"pkgutil", "resolve_name"},
    GlobalRule{"pty", "*"},
    GlobalRule{"profile", "*"},
    GlobalRule{"pydoc", "*"},
    GlobalRule{"test", "*"},
    GlobalRule{"timeit", "*"},
    GlobalRule{"torch._dynamo.guards", "GuardBuilder.get"},
    GlobalRule{"torch._inductor.codecache", "compile_file"},
    GlobalRule{"torch.fx.experimental.symbolic_shapes", "ShapeEnv.evaluate_guards_expression"},
    GlobalRule{"torch.jit.unsupported_tensor_ops", "execWrapper"},
    GlobalRule{"torch.serialization", "load"},
    GlobalRule{"torch.utils._config_module", "ConfigModule.load_config"},
    GlobalRule{"torch.utils.bottleneck.__main__", "run_cprofile run_autograd_prof"},
    GlobalRule{"torch.utils.collect_env", "run"},
    GlobalRule{"torch.utils.data.datapipes.utils.decoder", "basichandlers"},
    GlobalRule{"trace", "Trace.run Trace.runctx"},
    GlobalRule{"urllib.request", "*"},
    GlobalRule{"uuid", "*"},
    GlobalRule{"venv", "*"},
    GlobalRule{"webbrowser", "*"},
    GlobalRule{"_osx_support", "*"},
    GlobalRule{"_aix_support", "*"},
    GlobalRule{"_pyrepl", "*"},
};

bool names_match(std::string_view names, std::string_view name) {
  if (names == "*") return true;
  while (!names.empty()) {
    const std::size_t space = names.find(' ');
    if (names.substr(0, space) == name) return true;
    if (space == std::string_view::npos) break;
    names.remove_prefix(space + 1);
  }
  return false;
}

// Whether a row matches: its module exactly with the name listed, or, for "*", the module or a
// submodule of it (picklescan's parent-module rule).
bool rule_matches(const GlobalRule& rule, std::string_view module, std::string_view name) {
  if (module == rule.module) return names_match(rule.names, name);
  return rule.names == "*" && module.size() > rule.module.size() && module.starts_with(rule.module) &&
         module[rule.module.size()] == '.';
}

}  // namespace

std::string_view safety_name(Safety safety) {
  switch (safety) {
    case Safety::Safe: return "safe";
    case Safety::Unsafe: return "unsafe";
    default: return "unknown";
  }
}

std::span<const GlobalRule> safe_globals() { return kSafe; }
std::span<const GlobalRule> unsafe_globals() { return kUnsafe; }

Safety classify_global(std::string_view module, std::string_view name) {
  if (module == "__builtin__") module = "builtins";
  if (module == "copy_reg") module = "copyreg";
  if (module == "?" || name == "?") return Safety::Unsafe;  // STACK_GLOBAL of values no one can name
  for (const GlobalRule& rule : kUnsafe)
    if (rule_matches(rule, module, name)) return Safety::Unsafe;
  for (const GlobalRule& rule : kSafe)
    if (module == rule.module && names_match(rule.names, name)) return Safety::Safe;
  return Safety::Unknown;
}

}  // namespace safetensors::scan
