// The cache key of a kernel: everything baked into its generated code and
// nothing else — its canonical text (lambdas printed with the IR printer),
// the ids and types of the arrays it touches, the compile options, the
// Strata version and the target (LLVM version, host CPU and features) — so
// that the same program at other input sizes reuses its kernels.
#pragma once

#include <string>

#include "core/reduction_order.h"
#include "fusion/kernel_graph.h"

namespace strata::jit {

// The canonical text of a kernel (what its code is made from), a fold's or
// scan's association order included (CompileOptions::order).
std::string kernel_text(const KernelGraph& g, const Kernel& k, int temp_id,
                        const ReductionOrder& order = ReductionOrder::blocked());

// 40 hex digits (cache/kernel_cache.h KeyBuilder) over the text, the options and the target.
std::string kernel_key(const std::string& text, bool checked, const std::string& target);

} // namespace strata::jit
