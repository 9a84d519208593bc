// The type checker.
//
// Walks a parsed (or front-end built) program, resolves every variable, fills
// in the `type` of every Exp and Acc node and the program's result type, and
// rejects ill-typed programs with `file:line:col: error: ...` messages that say
// what was expected and what was found. It also enforces the stratification of
// the language: a scalar expression may only refer to arrays through array
// *variables* (`shape size ! !! the`), never start a collective operation
// ("nested data parallelism").
#pragma once

#include "core/ir.h"

namespace strata {

// Checks `p` in place; throws Error(ErrorKind::Type) on the first problem.
// Every call (ex::Call, ac::Call) is replaced by its expansion and every
// parameter written without a type gets the inferred one.
void check_program(Program& p);

// What a pass over checked IR does on a call, which checking removed.
[[noreturn]] void unexpanded_call(const SrcLoc& loc);

// Throws a usage error unless check_program accepted `p`: every engine and
// the interpreter call it first, so that a program built or parsed but never
// checked is an error, not a crash.
void require_checked(const Program& p);

} // namespace strata
