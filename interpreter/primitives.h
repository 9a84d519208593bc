// Dynamic application of scalar primitives and casts for the interpreter.
//
// Dispatches on the operand's scalar kind to the pinned definitions in
// core/semantics.h. Integer division by zero raises the runtime error
// "division by zero" naming the operation, its operands and the position.
#pragma once

#include "core/error.h"
#include "core/prim.h"
#include "core/scalar.h"

namespace strata {

// `args` holds prim_arity(op) operands of one type (the type checker ensures it).
Scalar apply_prim(Prim op, const Scalar* args, const SrcLoc& loc);
Scalar apply_cast(ScalarKind to, const Scalar& v);

} // namespace strata
