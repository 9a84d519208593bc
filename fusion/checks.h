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

// Rethrows `e`, raised while an engine ran kernel `k`. A Resource error
// without a position (an output too large to allocate) becomes the
// interpreter's (core/runtime_errors.h, allocation_failed) at the kernel's
// first source operation: the producer whose array the interpreter allocates
// first.
[[noreturn]] void rethrow_kernel_error(const Error& e, const Kernel& k);

} // namespace strata
