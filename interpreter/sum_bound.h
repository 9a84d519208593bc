// The enclosure of a float sum of m terms added in any order (any
// association, any tree, the terms in any order).
//
// Soundness. Each addition of the tree rounds once: fl(a + b) = (a + b)(1 + d)
// with |d| <= u, the unit roundoff (2^-24 for f32, 2^-53 for f64) — exactly,
// subnormal results included, since an addition whose result is subnormal is
// exact. So the result is sum_i t_i * p_i, where p_i is the product of the
// (1 + d) of the additions on term i's path to the root: at most m - 1 of
// them, hence p_i in [C-, C+] = [(1 - u)^(m-1), (1 + u)^(m-1)] (this is
// Higham's gamma(m-1) bound before it is simplified; it stays finite when
// (m-1)u >= 1, f32 sums of 2^24 terms included). With each term t_i in
// [lo_i, hi_i], the result therefore lies in
//     [ sum_i lo_i * (lo_i > 0 ? C- : C+),  sum_i hi_i * (hi_i > 0 ? C+ : C-) ].
// The four sums are accumulated in long double; their own rounding error,
// at most m * eps(long double) * sum|t| * C+, and the rounding of C+- are
// added outward, and the ends are rounded outward to the element type. No
// partial sum can overflow when sum_i max(|lo_i|, |hi_i|) * C+ stays below
// the type's largest finite value; otherwise the sum is undetermined (the
// bound overflows).
#pragma once

#include <cstdint>

#include "core/scalar.h"
#include "interpreter/bound_scalar.h"

namespace strata {

class SumBound {
public:
  // Adds one term (its enclosure; an undetermined term makes the sum undetermined).
  void add(const BScalar& term);
  int64_t terms() const { return m_; }
  // The enclosure of the sum of the terms so far in any order, with `point`
  // (the interpreter's sum, of the terms' kind) as its point.
  BScalar enclosure(const Scalar& point) const;

private:
  long double lo_pos_ = 0, lo_neg_ = 0, hi_pos_ = 0, hi_neg_ = 0, abs_ = 0;
  int64_t m_ = 0;
  Why why_ = Why::None;
  bool nan_ = false; // an exact NaN term: the sum is NaN in every order
};

} // namespace strata
