// Anchors: library baselines measured beside the hand-written ones
// (docs/bench.md, "Anchors"), for the workloads a well-kept library does
// best: OpenBLAS's sgemm for matmul. They may give other bits than the
// programs' strict order (OpenBLAS uses FMA and its own blocking), so their
// results are checked with the workload's tolerance only.
#pragma once

#include <string>
#include <vector>

#include "core/array.h"

namespace strata::bench {

struct Anchor {
  std::string name; // "openblas"
  // Reads the inputs, writes the preallocated outputs; `threads` 0: all.
  void (*run)(const std::vector<Array>& in, std::vector<Array>& out, int threads);
};

// The anchors of workload `workload` this machine has (none without OpenBLAS).
std::vector<Anchor> anchors_of(const std::string& workload);

// The anchor libraries and their configuration, for the report's context:
// "OpenBLAS, core SkylakeX".
std::string anchor_libraries();

} // namespace strata::bench
