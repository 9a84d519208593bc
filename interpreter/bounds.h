// The bounded evaluation of a program: every float element with an
// enclosure [lo, hi] of what any *legal* evaluation of the program on the
// same inputs may give (issue 16).
//
// Where an evaluation is replayed (an engine that declares its reduction
// order) the oracle compares bitwise. Where it cannot be — `strata check`
// against files computed by NumPy (another summation order, another libm),
// an engine with a vector math library, another order than the one
// declared — the comparison needs a bound that is sound: it holds for every
// legal evaluation, carried element by element through every operation.
// What a legal evaluation may do differently is given as Freedoms.
//
// Soundness, rule by rule (bound_scalar.h, sum_bound.h hold the details):
//  - IEEE round-to-nearest + - * / sqrt are monotone in each operand, so
//    evaluating the endpoint combinations with the same rounding (the
//    interpreter's own primitives) encloses every legal result; so are min
//    max abs neg signum floor ceil round trunc and float-to-float casts.
//  - A float sum of m terms in any order: each term reaches the root through
//    at most m-1 roundings (1 + d), |d| <= u, so it lies in
//    [sum lo_i (1 -+ u)^(m-1), sum hi_i (1 +- u)^(m-1)] (the sign picks the
//    side), the sums taken in long double and rounded outward (Higham's
//    gamma(m-1) * sum|t_i| bound, kept finite for (m-1)u >= 1).
//  - Float min/max reductions, and integer + * min max band bor bxor, bool
//    and/or, give the same value in every order: the enclosure of one order
//    is that of all. Any other combiner that may reassociate (more than two
//    terms) gives an undetermined result.
//  - Transcendentals (exp log sin cos tan asin acos atan sinh cosh tanh atan2
//    pow): monotone pieces, the extrema inside the interval, then outward by
//    math_ulps plus the interpreter's libm error (bound_scalar.h).
//  - Comparisons and float-to-int/bool casts are determined when the whole
//    enclosure decides them; otherwise their int/bool result is
//    undetermined, and so is whatever depends on it (an index, a shape, a
//    permute target). An `if` on an undecided condition takes the hull of
//    both branches (floats), or is undetermined where they differ (ints,
//    bools); a `while`, `awhile` or `acond` on an undecided condition makes
//    its result undetermined.
//  - An enclosure that reaches an infinity or holds a NaN is undetermined
//    ("the bound overflows", "NaN in a bound"): it never silently passes.
// An undetermined element can only be compared with the interpreter's value
// bitwise (oracle/bounded_compare.h).
//
// The evaluation follows the interpreter's own path (it raises the
// interpreter's errors) and every element's point value is the
// interpreter's result in `order`, bitwise.
#pragma once

#include <vector>

#include "core/array.h"
#include "core/ir.h"
#include "core/reduction_order.h"
#include "interpreter/bound_value.h"

namespace strata {

struct Freedoms {
  // Reductions (fold fold1 foldseg scans, permute with a float combiner) may
  // associate in any order; else they run in `order` exactly.
  bool any_order = false;
  ReductionOrder order = ReductionOrder::canonical();
  // Transcendentals within this many ulps of correctly rounded; 0: the
  // interpreter's libm exactly.
  int math_ulps = 0;

  // What `strata check` allows a NumPy-computed expected file.
  static Freedoms numpy() { return {true, ReductionOrder::canonical(), 4}; }
};

// One BoundedArray per flattened result, as interpret() returns them.
// Throws the interpreter's errors.
std::vector<BoundedArray> bound_program(const Program& program, const std::vector<Array>& inputs,
                                        const Freedoms& freedoms);

} // namespace strata
