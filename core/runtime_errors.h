// The run-time errors every engine raises, built in one place so that an
// engine's error is the interpreter's: same kind, same message, same position.
#pragma once

#include "core/error.h"
#include "core/prim.h"
#include "core/scalar.h"
#include "core/shape.h"

namespace strata {

// "division by zero in `quot` (7 quot 0)"
Error division_by_zero(Prim op, const Scalar& a, const Scalar& b, const SrcLoc& loc);
// "index (3) out of bounds for shape (3) in `!` of `xs`"; `op` is "!" or the
// operation fusion turned into this read (ex::Read::origin, e.g. `backpermute`).
Error index_out_of_bounds(const Index& ix, const Shape& sh, const std::string& op,
                          const std::string& array, const SrcLoc& loc);
// "linear index 7 out of bounds for size 6 (shape (2,3)) in `!!` of `xs`"
Error linear_index_out_of_bounds(int64_t i, const Shape& sh, const std::string& op,
                                 const std::string& array, const SrcLoc& loc);

} // namespace strata
