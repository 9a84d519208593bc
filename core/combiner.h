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

} // namespace strata
