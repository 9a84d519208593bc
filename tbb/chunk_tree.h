// The chunk tree of the blocked association order (core/reduction_order.h),
// the one home of its shape in the tbb engine. A chunk of m elements (scan
// order) is folded by L = chunk_lanes(order, elem, f) lanes (core/combiner.h;
// 1 unless f commutes): lane k starts with
// element k and folds elements k+L, k+2L, ... in order; then the lanes fold
// by halves, an odd middle lane waiting a level. The tree depends only on m
// and L, never on the threads.
#pragma once

#include <cstdint>

#include "tbb/combiner.h"

namespace strata::tbbe {

// The levels of the halves tree over `used` lanes: level(half, rest) must set
// lane[k] = f(lane[k], lane[rest + k]) for k < half, in any lane order (the
// lanes of one level are independent).
template <class Level> void fold_lanes_by_halves(int64_t used, Level&& level) {
  for (int64_t count = used; count > 1;) {
    int64_t half = count / 2, rest = count - half; // an odd middle lane waits a level
    level(half, rest);
    count = rest;
  }
}

// Chunk totals for any element function and any combining function (tuples,
// user functions), run on lanes of kBatch elements at a time: each batch of
// elements is computed at once, then every round of L consecutive elements
// is one step of the combining function over the lanes it feeds. The lane
// accumulators live outside the combiner's frame, so L may exceed kBatch.
class ChunkTree {
public:
  // `acc_first`: the lanes combine f(acc, x), otherwise f(x, acc) (right
  // scans); `lanes`: L, at least 1.
  ChunkTree(Runtime& rt, const ScalarFunction& elem, const Shape& shape, const ScalarFunction& f,
            bool acc_first, int64_t lanes);
  // The total of the m >= 1 elements whose scan-order element i lies at
  // row-major position first + i, or first - i when `backward` (right scans).
  // On an error, the elements are computed again one at a time in scan order
  // so that the first failing one is reported (else the combining error).
  Leaves total(int64_t first, int64_t m, bool backward);
  // Only computes those elements (their errors, in the same order).
  void check_elements(int64_t first, int64_t m, bool backward);

private:
  Leaves run(int64_t first, int64_t m, bool backward);
  // Throws the error of the first failing element in scan order, if any.
  void elements_one_by_one(int64_t first, int64_t m, bool backward);
  // Lanes [k, k+count) of the accumulators <-> lanes 0..count-1 of registers `regs`.
  void load(int64_t k, int count, const std::vector<int>& regs);
  void save(int64_t k, int count);

  Runtime& rt_;
  const ScalarFunction& elem_;
  const Shape& shape_;
  int64_t lanes_;
  Frame ef_;
  Combiner c_;
  std::vector<std::vector<std::byte>> acc_; // per leaf: lanes_ slots
};

} // namespace strata::tbbe
