// Anchors: baselines measured beside the hand-written strict ones
// (docs/bench.md, "Anchors") that are allowed to change results: the
// hand-written oneTBB code compiled with -ffast-math (every workload:
// `cpp_tbb_fastmath`), and a well-kept library where one applies (OpenBLAS's
// sgemm for matmul). Their results are compared with the strict baseline's;
// a difference beyond the workload's tolerance is reported as the
// benchmark's label ("changes results: ..."), not an error: the anchor says
// how fast the answer can be got when its bits may change.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/array.h"

namespace strata::bench {

struct Anchor {
  std::string name; // "openblas"
  // Reads the inputs, writes the preallocated outputs; `threads` 0: all.
  std::function<void(const std::vector<Array>& in, std::vector<Array>& out, int threads)> run;
};

// The anchors of workload `workload` this machine has (none without OpenBLAS).
std::vector<Anchor> anchors_of(const std::string& workload);

// The anchor libraries and their configuration, for the report's context:
// "OpenBLAS, core SkylakeX".
std::string anchor_libraries();

} // namespace strata::bench
