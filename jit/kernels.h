// The host side of each kernel kind on the jit engine: shapes, allocation,
// and how the kernel's generated entry points are cut into chunks that TBB
// runs. Chunks depend on the data size only, never on the thread count, and
// every chunk covers a contiguous range combined in order, so results are
// bitwise the same for any number of threads.
#pragma once

#include "jit/runtime.h"

namespace strata::jit {

void run_generate(Runtime& rt, const CompiledKernel& c, const Kernel& k, const kn::Generate& g);
// Folds and scans run `order` (core/reduction_order.h): its thresholds and
// chunks here, its lanes in the generated chunk entries.
void run_fold(Runtime& rt, const CompiledKernel& c, const Kernel& k, const kn::Fold& f,
              const ReductionOrder& order);
void run_foldseg(Runtime& rt, const CompiledKernel& c, const Kernel& k, const kn::FoldSeg& f);
void run_scan(Runtime& rt, const CompiledKernel& c, const Kernel& k, const kn::Scan& s,
              const ReductionOrder& order);
void run_permute(Runtime& rt, const CompiledKernel& c, const Kernel& k, const kn::Permute& p,
                 int temp_id);
void run_stencil(Runtime& rt, const CompiledKernel& c, const Kernel& k, const kn::Stencil& s);

} // namespace strata::jit
