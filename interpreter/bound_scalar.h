// One scalar of a bounded evaluation (interpreter/bounds.h): the
// interpreter's own value, and what every legal evaluation may give instead.
//
// A float carries an enclosure [lo, hi] (values of its own type, held in
// double, where an f32 is exact). An integer or a bool is either determined
// (every legal evaluation gives the interpreter's value) or undetermined. A
// float whose enclosure cannot be kept finite and NaN-free is undetermined
// too. An undetermined scalar says why (`Why`), and the comparison then asks
// for the interpreter's value bitwise.
//
// The rules, one per primitive (bound_prim), all evaluate the interpreter's
// own primitive (apply_prim, interpreter/primitives.h) on endpoints, so the
// rounding of an endpoint is the rounding of a legal evaluation:
//  - + - * / sqrt, min max abs neg signum floor ceil round trunc: IEEE
//    round-to-nearest is monotone in each operand, so the images of the
//    endpoint combinations enclose every result (division by an interval
//    containing 0 is undetermined: the bound overflows);
//  - transcendentals: monotone pieces, the extrema inside the interval (sin
//    and cos reach +-1, tan's poles make it undetermined), then
//    `math_ulps + 2 * kLibmUlps + 1` ulps outward (below);
//  - comparisons and float casts to integers and bools are determined when
//    every point of the enclosure gives the same answer, undetermined else;
//  - integers and bools whose operands are determined are the interpreter's
//    values (no freedom touches them);
//  - a NaN with no freedom (a `nan` literal, or IEEE arithmetic on one) is
//    exact_nan(): `min`/`max` give the other operand's enclosure (they
//    return the non-NaN operand), comparisons, isnan, isinf and casts are
//    decided, + - * / neg abs sqrt floor ceil round trunc stay exact NaN; any
//    other rule on it is undetermined (NaN). A NaN that only some legal
//    evaluations reach (log of an interval crossing 0) is undetermined.
#pragma once

#include <cstdint>

#include "core/error.h"
#include "core/prim.h"
#include "core/scalar.h"

namespace strata {

// Why a scalar is undetermined (None: it is determined).
enum class Why : uint8_t {
  None,
  Overflow,    // the enclosure reaches an infinity (or divides by an interval holding 0)
  NaN,         // the enclosure holds a NaN (sqrt, log, asin... outside the domain)
  Undecided,   // an integer or bool from a float comparison or cast the enclosure cannot decide
  Branch,      // an `if`, `acond` or `while` whose condition is undecided
  Index,       // read at an undetermined index, or an undetermined shape or permute target
  Order,       // a reduction whose combiner is not + min max (or exactly associative) in any order
  Unsupported, // no rule for this operation on this enclosure (pow of a base reaching 0...)
};

// "the bound overflows", "NaN in a bound", ...
const char* why_text(Why w);

// The error of the interpreter's libm (glibc) in the functions
// exp log sin cos tan asin acos atan sinh cosh tanh atan2 pow, f32 and f64,
// in ulps: glibc documents at most 2 on x86-64 for every one of them.
constexpr int kLibmUlps = 2;

struct BScalar {
  Scalar point;  // the interpreter's value
  double lo = 0; // floats: the enclosure, values of point.kind()
  double hi = 0;
  Why why = Why::None;

  bool determined() const { return why == Why::None; }
  bool is_float() const { return strata::is_float(point.kind()); }
  // A determined float that is NaN in every legal evaluation (lo and hi are
  // NaN): a NaN with no freedom, such as a `nan` literal or `nan + x`.
  bool exact_nan() const { return determined() && is_float() && lo != lo; }

  // A value with no freedom: ints and bools determined, floats the point
  // interval (an infinity is undetermined; a NaN is exact_nan()).
  static BScalar exact(const Scalar& s);
  // The same point, undetermined for `why` (a no-op if already undetermined).
  BScalar undetermined(Why w) const;
};

// The primitive `op` (prim_arity(op) arguments) on bounded operands:
// `point` is apply_prim on the points (which raises as the interpreter does),
// the enclosure as the header says. `math_ulps` is Freedoms::math_ulps.
BScalar bound_prim(Prim op, const BScalar* args, int math_ulps, const SrcLoc& loc);
BScalar bound_cast(ScalarKind to, const BScalar& v);

// The smallest enclosure of both (an `if` whose condition is undecided):
// floats the hull, ints and bools determined only when both are the same.
BScalar hull(const BScalar& a, const BScalar& b);

// `v` moved `k` floats down (toward -inf) or up, in the type of `kind`.
double ulps_down(ScalarKind kind, double v, int k);
double ulps_up(ScalarKind kind, double v, int k);

} // namespace strata
