// The inputs of a kernel graph, checked the way the interpreter checks a
// program's: every engine that runs kernel graphs (tbb, jit, cuda, the test
// evaluator) calls this before binding them, so a wrong count or type gives
// the same error everywhere.
#pragma once

#include <utility>
#include <vector>

#include "core/array.h"
#include "fusion/kernel_graph.h"

namespace strata {

// Throws Error(Input) when `inputs` do not match the graph's parameters in
// number and type.
void check_graph_inputs(const KernelGraph& graph, const std::vector<Array>& inputs);
// The same for inputs known by type and shape before they are read (an
// engine reading them by rows, docs/mpi.md).
void check_graph_input_types(const KernelGraph& graph,
                             const std::vector<std::pair<Type, Shape>>& inputs);

} // namespace strata
