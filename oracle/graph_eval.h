// A sequential evaluator of kernel graphs, for tests only.
//
// It gives kernel graphs a meaning that can be compared with the reference
// interpreter's: each compute kernel is turned back into a one-operation
// program over the manifest arrays (a delayed input becomes a `generate`) and
// run by the interpreter; loops, branches and the shape checks of delayed
// arrays are done here. Fusion is correct when this agrees bitwise with the
// interpreter on the original program. Engines never use it, and the
// interpreter never sees a kernel graph.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "core/array.h"
#include "core/engine.h"
#include "fusion/kernel_graph.h"

namespace strata {

struct GraphRunStats {
  std::map<int, double> kernel_ms; // by kernel id, summed over runs (loops)
  std::map<int, int> kernel_runs;
};

// Reductions associate in `order` (core/reduction_order.h).
std::vector<Array> evaluate_kernel_graph(const KernelGraph& graph, const std::vector<Array>& inputs,
                                         GraphRunStats* stats = nullptr,
                                         const ReductionOrder& order = ReductionOrder::canonical());

// The evaluator as an Engine named "graph" (fused or not, in the order of
// CompileOptions, which its executables declare).
std::unique_ptr<Engine> make_graph_engine();

} // namespace strata
