// How safe each global a pickle names is: `safe` when torch's weights-only loader accepts it,
// `unsafe` when a public scanner lists it as dangerous, `unknown` otherwise. The two tables are
// the facts, each row citing its source.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace safetensors::scan {

/// @brief A global's class.
enum class Safety : std::uint8_t {
  Safe,     ///< accepted by torch.load(weights_only=True)
  Unknown,  ///< in neither table: not known to be harmless
  Unsafe,   ///< listed as dangerous by picklescan, modelscan or torch's own blocklist
};

/// @brief The stable names "safe", "unknown", "unsafe".
std::string_view safety_name(Safety safety);

/// @brief One row: a module and its names ("*" for every name in the module and its submodules,
/// else names separated by spaces).
struct GlobalRule {
  std::string_view module;  ///< e.g. "torch._utils"
  std::string_view names;   ///< e.g. "_rebuild_tensor_v2 _rebuild_parameter"
};

/// @brief What torch/_weights_only_unpickler.py's _get_allowed_globals() accepts.
std::span<const GlobalRule> safe_globals();

/// @brief The denylist: picklescan's _unsafe_globals (src/picklescan/scanner.py), modelscan's
/// unsafe_globals (modelscan/settings.py) and torch's _blocklisted_modules.
std::span<const GlobalRule> unsafe_globals();

/// @brief Classifies `module.name`. Python 2 module names (`__builtin__`, `copy_reg`) are read as
/// Python 3's, as pickle's _compat_pickle.IMPORT_MAPPING does on load.
Safety classify_global(std::string_view module, std::string_view name);

}  // namespace safetensors::scan
