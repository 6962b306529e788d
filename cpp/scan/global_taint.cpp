// Global safety in context (global_taint.h): one pass over the values for BUILD-rewritten
// globals, one bounded walk from the arguments of every call whose callable is not safe.
#include "scan/global_taint.h"

#include <set>
#include <string>

namespace safetensors::scan {

using pickle::Kind;
using pickle::ValueId;

namespace {

// The safety of calling `callable`: a Global's class, otherwise (a call's result, say) unknown.
Safety callable_safety(const pickle::PickleResult& p, ValueId callable) {
  if (callable >= p.values.size() || p.at(callable).kind != Kind::Global) return Safety::Unknown;
  return classify_global(p.at(callable).text, p.at(callable).name);
}

// Marks every value reachable from the arguments of calls that are not safe.
std::vector<bool> tainted_values(const pickle::PickleResult& p) {
  std::vector<bool> tainted(p.values.size(), false);
  std::vector<ValueId> todo;
  for (const pickle::Value& v : p.values) {
    if (v.kind != Kind::Call || callable_safety(p, v.items[0]) == Safety::Safe) continue;
    todo.insert(todo.end(), v.items.begin() + 1, v.items.end());
    todo.insert(todo.end(), v.extra.begin(), v.extra.end());
    if (v.state != pickle::kNoValue) todo.push_back(v.state);
  }
  while (!todo.empty()) {  // each value is visited once: linear in the arena
    const ValueId id = todo.back();
    todo.pop_back();
    if (id >= p.values.size() || tainted[id]) continue;
    tainted[id] = true;
    const pickle::Value& v = p.at(id);
    todo.insert(todo.end(), v.items.begin(), v.items.end());
    todo.insert(todo.end(), v.extra.begin(), v.extra.end());
    if (v.state != pickle::kNoValue) todo.push_back(v.state);
  }
  return tainted;
}

}  // namespace

std::vector<Safety> global_safeties(const pickle::PickleResult& p) {
  std::set<std::string> rewritten;  // "module.name" of each global a BUILD targets
  for (const pickle::Value& v : p.values)
    if (v.kind == Kind::Global && v.state != pickle::kNoValue) rewritten.insert(v.text + "." + v.name);
  const std::vector<bool> tainted = tainted_values(p);
  std::vector<Safety> out;
  for (const pickle::GlobalRef& g : p.globals) {
    Safety s = g.readable ? classify_global(g.module, g.name) : Safety::Unsafe;
    if (rewritten.contains(g.module) || rewritten.contains(g.module + "." + g.name)) s = Safety::Unsafe;
    if (s == Safety::Safe && g.value < tainted.size() && tainted[g.value]) s = Safety::Unknown;
    out.push_back(s);
  }
  return out;
}

}  // namespace safetensors::scan
