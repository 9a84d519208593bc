// The printer of the canonical text form (docs/language.md, Program text).
//
// Output is deterministic and reads back to the same program:
// parse_program(print_program(p)) is structurally equal to p (see `equal` in
// core/ir.h), and printing is idempotent. Floats are written so that they read
// back bitwise (-0.0, inf and nan included; NaN payloads are not kept).
//
// Layout: a form goes on one line when it fits in 100 columns; otherwise its
// operands go on their own lines, indented two spaces from its `(`, with
// leading keywords (`lambda` parameters, `let` bindings, `proj` index, stencil
// window and boundary, ...) kept on the first line. A collective operation
// whose operands include another collective operation is always broken, so
// that every stage of an array pipeline starts its own line.
#pragma once

#include <string>

#include "core/ir.h"

namespace strata {

// The program text, ending with a newline.
std::string print_program(const Program& p);
// One expression, without a trailing newline (laid out as if at column 0).
std::string print_exp(const Exp& e);
std::string print_acc(const Acc& a);

} // namespace strata
