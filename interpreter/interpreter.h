// The reference interpreter: what a Strata program means.
//
// A sequential, tree-walking evaluator with one plain function per form of the
// language. Collective operations visit elements in row-major order and
// reductions combine left to right, the canonical order docs/language.md
// pins for the oracle. Checks are always on: out-of-range indices, division by
// zero, mismatched reshapes and empty fold1 rows are errors naming the
// operation, the index or operands, and the source position.
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "core/array.h"
#include "core/ir.h"
#include "core/reduction_order.h"
#include "interpreter/value.h"

namespace strata {

struct InterpreterOptions {
  // When set, `trace` and `atrace` print their label and value here.
  std::ostream* trace = nullptr;
  // With `trace` set: also print every collective operation's result as it is
  // produced (operation, position, type, shape, summary of values; see
  // interpreter/trace.h). This is `strata run --trace`.
  bool trace_collectives = false;
  // Only print the lines this selects (trace_selected in interpreter/trace.h):
  // a source line number, an operation name or a trace label. Empty: all.
  std::string trace_filter = {};
  // The association order of fold, fold1 and the scans (core/reduction_order.h):
  // the spec's left-to-right order by default, or an engine's declared order,
  // which the oracle replays to compare that engine bitwise.
  ReductionOrder order = ReductionOrder::canonical();
};

// Runs a type-checked program on its inputs (one array per parameter, in
// order). Returns the result arrays; an `atuple` result is flattened in order.
// Throws Error on bad inputs (ErrorKind::Input) and run-time errors.
std::vector<Array> interpret(const Program& program, const std::vector<Array>& inputs,
                             const InterpreterOptions& options = {});

// Evaluates one array expression of a checked program whose free array
// variables are bound in `env` (later bindings hide earlier ones). `explain`
// uses it to materialise the sub-arrays it needs whole.
Arrays interpret_acc(const Acc& a, const std::vector<std::pair<std::string, Arrays>>& env);

// Applies a checked function of two parameters to `x` and `y` with nothing
// else bound: the oracle's search for values that show a function is not
// associative (oracle/order_judge.h). Throws Error when the function reads
// anything but its parameters, or fails.
Value apply_function(const Lambda& f, const Value& x, const Value& y);

} // namespace strata
