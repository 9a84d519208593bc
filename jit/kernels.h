// The host side of each jit kernel kind: shapes, allocation, the aux slots
// (jit/kernel_slots.h), and how the kernel's generated entry points are cut
// into chunks that TBB runs. Each driver is in its kind's file
// (jit/<kind>_kernel.cpp) beside the entries it runs. Chunks depend on the
// data size only, never on the thread count, and every chunk covers a
// contiguous range combined in order, so results are bitwise the same for
// any number of threads.
#pragma once

#include <algorithm>

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

// What the drivers share.
namespace host {

constexpr int64_t kGrain = 16384; // elements per parallel chunk

inline Shape outer_of(const Shape& sh) {
  return Shape(sh.begin(), sh.end() - 1);
}

// Rows per chunk so that a chunk holds about kGrain elements.
inline int64_t row_grain(int64_t n) {
  return std::max<int64_t>(1, kGrain / std::max<int64_t>(n, 1));
}

// `grain` rounded up to whole groups of `lanes` (rows or units the main
// entry runs at once in lanes, KernelCode::row_lanes; 0: none).
inline int64_t whole_groups(int64_t grain, int lanes) {
  return lanes > 0 ? (grain + lanes - 1) / lanes * lanes : grain;
}

// `count` aux slots, the shape in the first.
inline std::vector<Slot> shape_slots(const Shape& sh, size_t count) {
  std::vector<Slot> s(sh.begin(), sh.end());
  s.resize(std::max(count, sh.size()), 0);
  return s;
}

// Result arrays come uninitialised from the executable's pool
// (jit/runtime.h ArrayPool): each kernel writes every element of its results
// (or fails, and the array is dropped), so zero-filling would only add a pass
// over memory.
inline Array result_array(Runtime& rt, const Type& elem, const Shape& shape) {
  return rt.pool.take(elem, shape);
}

} // namespace host
} // namespace strata::jit
