// The compute kernels of the tbb engine, one function per kernel kind. Each
// reads its inputs from the runtime, runs its scalar code in batches on TBB
// worker threads, and stores its outputs in the runtime. Work is divided by
// data size only, never by thread count, so results are bitwise the same for
// any number of threads.
#pragma once

#include "tbb/runtime.h"

namespace strata::tbbe {

// A delayed array made manifest: its checks, its shape, every element, into
// the storage of kernel output `id` (Runtime::allocate).
Array materialise(Runtime& rt, const Delayed& d, ArrayId id);
// The same into scratch storage of kernel `kernel_id` (Runtime::scratch).
Array materialise_scratch(Runtime& rt, const Delayed& d, int kernel_id);

void run_generate(Runtime& rt, const Kernel& k, const kn::Generate& g);
void run_fold(Runtime& rt, const Kernel& k, const kn::Fold& f);
void run_foldseg(Runtime& rt, const Kernel& k, const kn::FoldSeg& f);
void run_scan(Runtime& rt, const Kernel& k, const kn::Scan& s);
void run_permute(Runtime& rt, const Kernel& k, const kn::Permute& p);
void run_stencil(Runtime& rt, const Kernel& k, const kn::Stencil& s);

// Batches of kBatch elements per parallel task unit: 16 batches = 4096 elements.
constexpr int64_t kBatchesPerTask = 16;

} // namespace strata::tbbe
