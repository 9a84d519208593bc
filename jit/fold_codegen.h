// Folds as LLVM IR: a loop carrying an accumulator, and the total of one
// chunk under the declared lane tree of core/reduction_order.h (the blocked
// order's chunk_total), the same steps as interpreter/ordered_reductions.h.
// Used by jit/fold_kernel.cpp and jit/scan_kernel.cpp only.
#pragma once

#include <functional>

#include "jit/fn_builder.h"

namespace strata::jit {

// A loop over j in [lo, hi) carrying `init` through `step(acc, j)`, in order;
// returns the final value (`init` when the range is empty).
Val fold_loop(FnBuilder& f, llvm::Value* lo, llvm::Value* hi, const Val& init,
              const std::function<Val(const Val&, llvm::Value*)>& step);

// The total of a chunk of `m` (at least 1) elements `elem(q)`, q in [0, m),
// with `lanes` lanes (fold_lanes of the order): lane k starts at element k
// and folds elements k + lanes, k + 2 lanes, ... in order; then the lanes
// fold by halves, an odd middle lane waiting a level. Combining is
// fn(acc, x), or fn(x, acc) when `swapped` (a right scan reads backwards).
// A scalar int or float element with a combiner the lane code generator
// takes (jit/lane_codegen.h lane_combiner) keeps the lanes in one LLVM vector
// <lanes x T>: vector code with no fast-math flag; anything else (tuples,
// bools, calls that can fail) keeps them in an array of `lanes`
// accumulators, combined by the scalar code. Integer + * min max band bor
// bxor give the same bits in every order: those fold left to right.
Val chunk_total(FnBuilder& f, const Type& t, const Lambda& fn, bool swapped, int lanes,
                llvm::Value* m, const std::function<Val(llvm::Value*)>& elem);

} // namespace strata::jit
