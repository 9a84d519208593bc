// Fusion: a checked program -> its kernel graph (fusion/kernel_graph.h).
//
// Producer/consumer fusion as in Accelerate (McDonell et al., "Optimising
// Purely Functional GPU Programs", ICFP 2013): element-wise producers become
// delayed arrays that fuse into one another and into their consumers;
// collective operations consume delayed inputs and produce manifest arrays.
// An array bound by `alet` and used more than once, read at arbitrary indices
// (`!`, `!!`, `the`, a stencil, foldseg's segments) or used inside an
// `awhile` is made manifest, unless it is cheap to recompute (a literal fill,
// or a few index computations over a manifest array): work is never
// duplicated. With fusion off every operation is its own kernel. The rules
// are written out in docs/fusion.md.
#pragma once

#include "core/ir.h"
#include "fusion/kernel_graph.h"

namespace strata {

struct FusionOptions {
  bool fusion = true; // false: every operation is its own kernel
};

// `program` must be type-checked. Every program the checker accepts converts.
KernelGraph build_kernel_graph(const Program& program, const FusionOptions& options = {});

} // namespace strata
