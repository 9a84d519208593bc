// The engine registry: engines found by name ("interp", "tbb", "jit", "cuda").
//
// The oracle and the command line reach engines only through this registry
// and the Engine interface, never through an engine's internals.
#pragma once

#include <string>
#include <vector>

#include "core/engine.h"

namespace strata {

// Every engine built into this binary, the interpreter first.
const std::vector<const Engine*>& all_engines();
// The engine of that name, or nullptr.
const Engine* find_engine(const std::string& name);
// "interp, tbb": the registered names, for messages.
std::string engine_names();

} // namespace strata
