// The float tolerance of engine-versus-oracle comparisons, derived from the
// program itself (issue 5; policy in docs/testing.md).
//
// Engines may reassociate reductions (`fold fold1 foldseg scan* permute`) —
// docs/language.md, Association order of reductions — so a float sum may come out of an engine
// different from the oracle's left-to-right sum. Every other operation is
// pinned bitwise. The analysis therefore classifies each result array:
//  - Exact: no reassociable float reduction can influence it. Integers, bools
//    and shapes must be equal; floats equal as numbers (NaN matches NaN, -0.0
//    matches 0.0, because min/max reductions may pick either zero).
//  - Bounded: the result *is* a float `+` reduction (possibly through alet,
//    atrace, aproj and atuple) whose operand is exact. The oracle evaluates the
//    operand and bounds each output element by the worst case error of any
//    summation order: 1.01 * (m-1) * eps * sum|terms| (+ m subnormal units),
//    m the number of terms (seed included) — where NaN, or infinities without
//    possible overflow, are exact, and a possible overflow is unconstrained.
//  - Unconstrained: a reassociated value flows into further computation (a
//    function, an index, a condition, a loop); only the element type is
//    compared. Such outputs are counted by the harness so that they stay rare.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/array.h"
#include "core/ir.h"

namespace strata {

struct ResultTolerance {
  enum class Mode { Exact, Bounded, Unconstrained };
  Mode mode = Mode::Exact;
  std::vector<double> bound; // Bounded: per element (row-major), max |engine - oracle|
  std::string reason;        // why not Exact (for reports)
};

struct ProgramTolerance {
  std::vector<ResultTolerance> results; // one per flattened result array
  // False when a reassociated value feeds a computation, so that whether and
  // which error is raised may legitimately differ between engines.
  bool errors_exact = true;
};

std::string_view mode_name(ResultTolerance::Mode m);

// Classifies every result of a checked program; evaluates operands of Bounded
// results with the interpreter on `inputs`. Call it when the oracle succeeded.
ProgramTolerance derive_tolerance(const Program& program, const std::vector<Array>& inputs);

// nullopt when `actual` is within the tolerance of `expected`, otherwise the first difference.
std::optional<std::string> compare_with_tolerance(const Array& expected, const Array& actual,
                                                  const ResultTolerance& tolerance);

// The bound of one sum whose terms are given (exposed for tests): 0 when the
// result is exact in every order (NaN, a single infinity), +inf when some order
// may overflow.
double summation_bound(const std::vector<double>& terms, ScalarKind kind);

} // namespace strata
