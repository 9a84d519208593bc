// The kernel graph as Graphviz text (`strata dot`, `--dump-dot`), like
// Accelerate's -ddump-dot.
//
// One box per compute kernel, labelled with its kind and the source
// operations fused into it with their `line:col`; program inputs and `use`
// literals are ellipses, results are double octagons; an arrow is an array
// passed from its producer to a kernel that reads it, labelled with the
// array's name (and the program's name for it). An `awhile` or `acond` is a
// dashed cluster holding the kernels of its condition, body or branches.
// The output renders with `dot -Tsvg`.
#pragma once

#include <string>

#include "fusion/kernel_graph.h"

namespace strata {

std::string kernel_graph_dot(const KernelGraph& graph, const std::string& title = "strata");

} // namespace strata
