// The typing rule of every primitive (docs/language.md, Primitives), used by
// the type checker (core/check.cpp).
#pragma once

#include <string>
#include <vector>

#include "core/error.h"
#include "core/ir.h"
#include "core/types.h"

namespace strata {

// The result type of `p` applied to operands of these types; a type error
// (Error(ErrorKind::Type)) at `loc`, or at an operand's position, otherwise.
Type prim_result_type(const ex::PrimApp& p, const std::vector<Type>& args, const SrcLoc& loc);

// "; write the literal as 64.0f32" when `e` is a literal whose value is one
// of `want` exactly (`64` where an f32 is wanted), else "". Literals are
// never converted implicitly (docs/language.md): a type error about one
// says what to write.
std::string literal_hint(const Exp& e, const Type& want);

} // namespace strata
