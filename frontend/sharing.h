// Sharing recovery: from the graph of handles to a program with alet/let.
//
// The handles of the front end build a graph: a C++ variable used twice is one
// node with two parents. `recover_sharing` turns the graph into an IR tree in
// which every array node used more than once, and every array read by a scalar
// expression (`!`, `shape`, ... need an array variable), is bound once with
// `alet`, and every scalar node used more than once within one scalar function
// is bound once with `let` -- as Accelerate's sharing recovery does.
//
// Each binding is placed at the top of the lowest scope that holds all its
// uses. Scopes are the program body, the two functions of `awhile` and the two
// branches of `acond` (arrays); for scalars, each function of a collective
// operation, each array-level expression, the functions of `while`, the
// branches of `if` and the second operand of `and`/`or` (which may not be
// evaluated). A node that mentions a lambda parameter therefore never leaves
// its lambda. A scalar shared only between branches that may not run is
// recomputed in each branch rather than hoisted above the condition, so sharing
// never evaluates what the program would not have evaluated.
//
// Variables are renamed canonically (program parameters p0 p1 ..., arrays a0
// ..., scalar bindings v0 ..., function parameters x0 ..., windows w0 ...,
// awhile states s0 ...), so a program prints the same however often it is
// traced. Graphs are analysed with explicit stacks; the rebuild recurses once
// per nesting level of the result, so deep programs are rebuilt on a large
// stack (core/large_stack.h; compile() and run() do this).
#pragma once

#include <memory>
#include <vector>

#include "core/ir.h"

namespace strata::fe {

// A program made by sharing recovery. It owns its nodes and frees them newest
// first, so destroying a program ten thousand levels deep does not recurse.
class OwnedProgram {
public:
  OwnedProgram() = default;
  OwnedProgram(const OwnedProgram&) = delete;
  OwnedProgram& operator=(const OwnedProgram&) = delete;
  ~OwnedProgram();

  Program program;
  // The deepest nesting of forms in `program` (a chain of n maps is about n).
  int depth = 0;
  // Every node of `program`, in the order made (children before parents).
  std::vector<std::shared_ptr<void>> nodes;
};

// Builds the program with parameters `params` (whose names the graph's array
// variables use) and result graph `body`. Throws Error(ErrorKind::Type) when a
// collective operation depends on a parameter of an enclosing scalar function
// (nested data parallelism) or a variable is used outside its function.
std::unique_ptr<OwnedProgram> recover_sharing(const std::vector<Param>& params, const AccPtr& body);

} // namespace strata::fe
