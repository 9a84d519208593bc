// fold over long rows with a recognised commutative operation, as typed loops.
//
// `(lambda ((a T) (b T)) (op a b))` (or `(op b a)`) with op + * min max band
// bor bxor on an integer type, or + * on a float type. A chunk is folded by
// the chunk tree of core/reduction_order.h with L = 128 / sizeof(T) lanes
// (eight 16-byte vectors): accumulator lane l takes the elements l, l+L,
// l+2L, ... of the chunk in order, and the lanes fold by halves
// (tbb/chunk_tree.h). The element function runs on kBatch consecutive
// elements at once (read in place) and each step is one typed loop over
// registers, with no combiner code. The result depends on the chunk length
// only, never on the threads.
//
// Floats: + and * are commutative exactly, so `(op b a)` and the swapped
// operands of right scans give the same bits; the tree is the declared one
// only when the order's lanes are these L (native_runs). Integer wrapping
// ops are exactly associative and commutative: every order gives the same
// bits, so tbb runs them in native_order() whatever order was declared.
#pragma once

#include <optional>

#include "core/ir.h"
#include "core/prim.h"
#include "core/reduction_order.h"
#include "tbb/runtime.h"

namespace strata::tbbe {

struct NativeFold {
  Prim op = Prim::Add;
  ScalarKind type = ScalarKind::I64;
};

// How `f` combines, if it is one of the forms above.
std::optional<NativeFold> recognise_fold(const Lambda& f);

// Whether every association order gives `op` bitwise the same result
// (integer wrapping + * min max band bor bxor).
bool exact(const NativeFold& op);

// The order tbb runs a native fold or scan with `op` in, declared being the
// order it was asked for: an exact op runs in tbb's own chunks (folds
// chunked from 32768 elements, scans from 16384, in chunks of 16384, with
// the native lanes), which give bitwise the declared tree's result whatever
// it is; any other op runs the declared order.
ReductionOrder native_order(const ReductionOrder& declared, const NativeFold& op);

// Whether the native chunk fold runs native_order()'s chunk tree for `op`:
// always for an exact op; for a float op, when the declared lanes are the
// native L = 128 / sizeof(T).
bool native_runs(const ReductionOrder& declared, const NativeFold& op);

// Folds elements [start, start+len) (row-major positions, len >= 1, within one
// row) of the delayed input whose element function is `elem` and whose shape
// is `shape`, without a seed, by the chunk tree: element i of the chunk is
// the one at start + i, or at start + len - 1 - i when `backward` (the scan
// order of a right scan; ignored for exact ops). Errors are those of the
// first failing element.
Leaves fold_chunk_native(Runtime& rt, const Lambda& elem, const Shape& shape, int64_t start,
                         int64_t len, const NativeFold& op, bool backward = false);

} // namespace strata::tbbe
