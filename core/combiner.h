// What a reduction's combiner is, and which combiners give the same result in
// every association order: decided here once for the bounds (interpreter),
// tbb's native folds and permutes, and anything else that would reorder.
//
// A binary combiner is `(lambda ((a T) (b T)) (op a b))` with T scalar,
// either operand first; a componentwise one is a tuple whose component k is
// `(op (proj k a) (proj k b))`, either operand first.
#pragma once

#include <optional>
#include <vector>

#include "core/ir.h"
#include "core/reduction_order.h"

namespace strata {

struct BinaryCombiner {
  Prim op;
  ScalarKind kind; // T
};

// The binary combiner `f` is, or nullopt.
std::optional<BinaryCombiner> binary_combiner(const Lambda& f);

// The operation per scalar leaf of the element type, or nullopt when the
// combiner is not of that form (nested tuples included).
std::optional<std::vector<Prim>> componentwise_ops(const Lambda& f);

// Whether `op` on `kind` gives bitwise the same value in every association
// order and operand order: integer wrapping + * min max band bor bxor, and
// bool and/or. An engine may run these in any order without declaring it.
bool reorders_exactly(Prim op, ScalarKind kind);

// Whether `op` on `kind` gives the same value as a number in every order:
// the above, and float min and max (a tie of -0.0 and 0.0 may come out
// either way, which an enclosure [lo, hi] does not distinguish; bitwise
// comparisons must not rely on it).
bool order_free(Prim op, ScalarKind kind);

// Whether `op` on `kind` commutes bitwise, f(a, b) == f(b, a) for every a, b
// (NaNs match NaNs, as the oracle compares them): integer + * min max band
// bor bxor, bool and/or, and float + and *. Not float min/max: ties return
// the first operand (docs/language.md), so (min -0.0 0.0) is -0.0 and
// (min 0.0 -0.0) is 0.0.
bool commutes(Prim op, ScalarKind kind);

// Whether the function `f` provably commutes: a binary combiner whose op
// commutes on its type, or a componentwise one on a tuple of scalars whose
// every component does. The one closed list of functions that strided lanes
// and the halves tree may combine (docs/language.md, "Legal orders"); a
// function outside it may still commute, but is grouped as if it did not.
bool commutes(const Lambda& f);

// The lanes a chunk of a reduction of `elem` combined by `f` is folded in
// under `order` (core/reduction_order.h): fold_lanes(order, elem) strided
// lanes when `f` commutes (or the order strides every function), otherwise
// 1: the chunk left to right, legal for every associative function. Every
// engine and the interpreter take a reduction's lanes from here.
int chunk_lanes(const ReductionOrder& order, const Type& elem, const Lambda& f);

} // namespace strata
