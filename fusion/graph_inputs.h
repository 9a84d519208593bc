// The inputs of a kernel graph, checked the way the interpreter checks a
// program's: every engine that runs kernel graphs (tbb, jit, cuda, the test
// evaluator) calls this before binding them, so a wrong count or type gives
// the same error everywhere.
#pragma once

#include <vector>

#include "core/array.h"
#include "fusion/kernel_graph.h"

namespace strata {

// Throws Error(Input) when `inputs` do not match the graph's parameters in
// number and type.
void check_graph_inputs(const KernelGraph& graph, const std::vector<Array>& inputs);

} // namespace strata
