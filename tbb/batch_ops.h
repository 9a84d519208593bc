// Typed batch instructions for primitives, casts and register copies.
//
// Each builder picks the C++ types once, at compile time of the kernel, and
// returns an instruction whose inner loop is a plain typed loop over the
// selected lanes. The scalar semantics are core/semantics.h, exactly.
#pragma once

#include "core/error.h"
#include "core/prim.h"
#include "tbb/batch.h"

namespace strata::tbbe {

// Which operands of an instruction are constant registers (every lane holds
// the same value for the whole run): they are read once, as a scalar, so
// `(* x 1.5)` streams one register, not two.
enum ConstantOperands : unsigned { kNoConstant = 0, kFirstConstant = 1, kSecondConstant = 2 };

// out := op(a [, b]) for `op` on operands of kind `k` (the checker's types).
// Integer division by zero throws the interpreter's error at `loc`.
Instr prim_instr(Prim op, ScalarKind k, int a, int b, int out, const SrcLoc& loc,
                 unsigned constants = kNoConstant);

// out := cast<to>(a) where a has kind `from`.
Instr cast_instr(ScalarKind from, ScalarKind to, int a, int out);

// to := from on the selected lanes, for a leaf of kind `k`.
Instr copy_instr(ScalarKind k, int from, int to);

// Fills every lane of `reg` with `value` (used in frame preparation).
Instr fill_instr(const Scalar& value, int reg);

} // namespace strata::tbbe
