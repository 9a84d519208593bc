// The typing rule of every primitive (docs/language.md, Primitives), used by
// the type checker (core/check.cpp).
#pragma once

#include <vector>

#include "core/error.h"
#include "core/ir.h"
#include "core/types.h"

namespace strata {

// The result type of `p` applied to operands of these types; a type error
// (Error(ErrorKind::Type)) at `loc`, or at an operand's position, otherwise.
Type prim_result_type(const ex::PrimApp& p, const std::vector<Type>& args, const SrcLoc& loc);

} // namespace strata
