// Which engines a checking command (`fuzz`, `test`) runs.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "core/engine.h"

namespace strata::tool {

// Each of `names` (faulty:FAULT engines too; a usage error when unknown or
// not available here, naming the engines there are); with no names, every
// available engine but the interpreter, with a `skip` line on `out` for each
// of the others, or the interpreter when no other is here.
std::vector<const Engine*> engines_to_check(const std::vector<std::string>& names,
                                            std::ostream& out);

} // namespace strata::tool
