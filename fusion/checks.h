// The checks of a delayed array (kernel_graph.h, `Check`), shared by every
// engine: the shape and index errors the interpreter raises while building
// the element-wise arrays that fusion turned into delayed ones.
#pragma once

#include <functional>

#include "fusion/kernel_graph.h"

namespace strata {

// Runs d.checks in order; `eval` gives the i64 components of a closed
// expression (an index, or a single i64). Throws the interpreter's error.
void run_delayed_checks(const Delayed& d, const std::function<Index(const ExpPtr&)>& eval);

} // namespace strata
