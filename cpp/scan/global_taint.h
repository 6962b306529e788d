// Each global occurrence's safety in context: the table's class (global_safety.h), made worse
// where the pickle itself says so. A name that is not a string is unsafe; a global whose module
// the pickle rewrote with BUILD (as a sys.modules override exploit does) is unsafe; a safe
// global whose value is passed, however deep, to a call of a global that is not safe (such as
// _codecs.encode building the bytes pickle.loads runs) is at best unknown.
#pragma once

#include <vector>

#include "pickle/pickle_machine.h"
#include "scan/global_safety.h"

namespace safetensors::scan {

/// @brief One Safety per pickle.globals entry, in order.
std::vector<Safety> global_safeties(const pickle::PickleResult& pickle);

}  // namespace safetensors::scan
