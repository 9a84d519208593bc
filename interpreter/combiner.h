// What a reduction's combiner does, when the bounded evaluation can tell
// (interpreter/bounds.h): `(lambda ((a T) (b T)) (op a b))`, or a tuple whose
// component k is `(op (proj k a) (proj k b))`, either operand first.
#pragma once

#include <optional>
#include <vector>

#include "core/ir.h"

namespace strata {

// The operation per scalar leaf of the element type, or nullopt when the
// combiner is not of that form (nested tuples included).
std::optional<std::vector<Prim>> componentwise_ops(const Lambda& f);

// Whether `op` on `kind` gives the same value in every association order:
// integer wrapping + * min max band bor bxor and bool and/or bitwise; float
// min and max as numbers (a tie of -0.0 and 0.0 may come out either way,
// which an enclosure [lo, hi] does not distinguish).
bool order_free(Prim op, ScalarKind kind);

} // namespace strata
