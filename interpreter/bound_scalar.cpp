#include "interpreter/bound_scalar.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <numbers>

#include "interpreter/primitives.h"

namespace strata {
namespace {

// ------------------------------------------------------------ endpoints
// The interpreter's primitive on endpoint values: the rounding of a legal
// evaluation, from the one home of the rule.
template <class T> T at(Prim op, T x, const SrcLoc& loc) {
  Scalar a = Scalar::make(x);
  return apply_prim(op, &a, loc).template get<T>();
}
template <class T> T at(Prim op, T x, T y, const SrcLoc& loc) {
  Scalar a[2] = {Scalar::make(x), Scalar::make(y)};
  return apply_prim(op, a, loc).template get<T>();
}

template <class T> T step_down(T v, int k) {
  for (int i = 0; i < k; ++i)
    v = std::nextafter(v, -std::numeric_limits<T>::infinity());
  return v;
}
template <class T> T step_up(T v, int k) {
  for (int i = 0; i < k; ++i)
    v = std::nextafter(v, std::numeric_limits<T>::infinity());
  return v;
}

// The result `point` with the enclosure [lo, hi]: undetermined when it is
// not finite (or the point itself is not).
template <class T> BScalar enclose(const Scalar& point, T lo, T hi) {
  BScalar r;
  r.point = point;
  r.lo = double(lo);
  r.hi = double(hi);
  T p = point.get<T>();
  if (std::isnan(lo) || std::isnan(hi) || std::isnan(p))
    r.why = Why::NaN;
  else if (std::isinf(lo) || std::isinf(hi) || std::isinf(p))
    r.why = Why::Overflow;
  return r;
}

template <class T> BScalar hull_of(const Scalar& point, std::initializer_list<T> values) {
  T lo = *values.begin(), hi = lo;
  for (T v : values) {
    if (std::isnan(v)) return enclose<T>(point, v, v);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  return enclose<T>(point, lo, hi);
}

BScalar decided(bool value, bool determined, Why why = Why::Undecided) {
  BScalar r = BScalar::exact(Scalar::make(value));
  if (!determined) r.why = why;
  return r;
}

// ------------------------------------------------------------ transcendentals
// Is some x0 + k * period (k an integer) in [lo, hi]? Answers yes when in
// doubt (near an end, or arguments too large to place the point), which only
// widens the enclosure.
bool may_contain(double lo, double hi, long double x0, long double period) {
  if (std::fabs(lo) > 1e6 || std::fabs(hi) > 1e6 || hi - lo >= double(period)) return true;
  long double a = (lo - x0) / period, b = (hi - x0) / period;
  return std::floor(b + 1e-9L) >= std::ceil(a - 1e-9L);
}

template <class T>
BScalar transcendental(Prim op, const BScalar& a, const Scalar& point, int math_ulps,
                       const SrcLoc& loc) {
  T lo = T(a.lo), hi = T(a.hi);
  T flo = at(op, lo, loc), fhi = at(op, hi, loc);
  constexpr long double pi = std::numbers::pi_v<long double>;
  BScalar r;
  switch (op) {
  case Prim::Exp:
  case Prim::Sinh:
  case Prim::Tanh:
  case Prim::Atan: r = enclose<T>(point, flo, fhi); break;
  case Prim::Log:
  case Prim::Asin: r = enclose<T>(point, flo, fhi); break; // NaN or -inf outside the domain
  case Prim::Acos: r = enclose<T>(point, fhi, flo); break;
  case Prim::Cosh:
    if (lo >= 0)
      r = enclose<T>(point, flo, fhi);
    else if (hi <= 0)
      r = enclose<T>(point, fhi, flo);
    else
      r = enclose<T>(point, T(1), std::max(flo, fhi));
    break;
  case Prim::Sin:
  case Prim::Cos: {
    long double max_at = op == Prim::Sin ? pi / 2 : 0, min_at = op == Prim::Sin ? -pi / 2 : pi;
    T rlo = std::min(flo, fhi), rhi = std::max(flo, fhi);
    if (may_contain(a.lo, a.hi, max_at, 2 * pi)) rhi = T(1);
    if (may_contain(a.lo, a.hi, min_at, 2 * pi)) rlo = T(-1);
    r = enclose<T>(point, rlo, rhi);
    break;
  }
  case Prim::Tan:
    if (a.lo != a.hi && may_contain(a.lo, a.hi, pi / 2, pi))
      return BScalar{point, 0, 0, Why::Overflow};
    r = enclose<T>(point, flo, fhi);
    break;
  default: return BScalar{point, 0, 0, Why::Unsupported};
  }
  if (!r.determined()) return r;
  int widen = math_ulps + kLibmUlps + 2;
  if (math_ulps == 0) widen = a.lo == a.hi ? 0 : 2 * kLibmUlps + 1;
  return enclose<T>(point, step_down(T(r.lo), widen), step_up(T(r.hi), widen));
}

// pow and atan2: where the function is monotone in each operand for every
// value of the other, the four corners enclose it.
template <class T>
BScalar two_operand_transcendental(Prim op, const BScalar& a, const BScalar& b, const Scalar& point,
                                   int math_ulps, const SrcLoc& loc) {
  T xl = T(a.lo), xh = T(a.hi), yl = T(b.lo), yh = T(b.hi);
  bool points = xl == xh && yl == yh;
  bool corners = points;
  bool with_zero = false;
  if (op == Prim::Atan2) {
    // atan2(a, b): a is y, b is x; away from the cut (x <= 0, y = 0).
    corners = points || yl > 0 || yh < 0 || xl > 0;
  } else if (xl > 0 || (xl >= 0 && yl > 0)) {
    corners = true;
  } else if (yl == yh && std::trunc(yl) == yl && std::fabs(yl) < T(1e9)) {
    // An integer exponent: monotone on each side of 0, 0 (n > 0) between.
    if (xl <= 0 && xh >= 0 && yl < 0) return BScalar{point, 0, 0, Why::Overflow};
    corners = true;
    with_zero = xl < 0 && xh > 0;
  }
  if (!corners) return BScalar{point, 0, 0, Why::Unsupported};
  BScalar r = hull_of<T>(
      point, {at(op, xl, yl, loc), at(op, xl, yh, loc), at(op, xh, yl, loc), at(op, xh, yh, loc)});
  if (!r.determined()) return r;
  if (with_zero) {
    r.lo = std::min(r.lo, 0.0);
    r.hi = std::max(r.hi, 0.0);
  }
  int widen = math_ulps + kLibmUlps + 2;
  if (math_ulps == 0) widen = points ? 0 : 2 * kLibmUlps + 1;
  return enclose<T>(point, step_down(T(r.lo), widen), step_up(T(r.hi), widen));
}

// ------------------------------------------------------------ float rules
template <class T>
BScalar float_prim(Prim op, const BScalar& a, const BScalar& b, const Scalar& point, int math_ulps,
                   const SrcLoc& loc) {
  T al = T(a.lo), ah = T(a.hi), bl = T(b.lo), bh = T(b.hi);
  switch (op) {
  case Prim::Add: return enclose<T>(point, at(op, al, bl, loc), at(op, ah, bh, loc));
  case Prim::Sub: return enclose<T>(point, at(op, al, bh, loc), at(op, ah, bl, loc));
  case Prim::Mul:
    return hull_of<T>(point, {at(op, al, bl, loc), at(op, al, bh, loc), at(op, ah, bl, loc),
                              at(op, ah, bh, loc)});
  case Prim::Div:
    if (bl <= 0 && bh >= 0) return BScalar{point, 0, 0, Why::Overflow};
    return hull_of<T>(point, {at(op, al, bl, loc), at(op, al, bh, loc), at(op, ah, bl, loc),
                              at(op, ah, bh, loc)});
  case Prim::Min:
  case Prim::Max: return enclose<T>(point, at(op, al, bl, loc), at(op, ah, bh, loc));
  case Prim::Neg: return enclose<T>(point, at(op, ah, loc), at(op, al, loc));
  case Prim::Abs:
    if (al < 0 && ah > 0) return enclose<T>(point, T(0), std::max(at(op, al, loc), ah));
    return hull_of<T>(point, {at(op, al, loc), at(op, ah, loc)});
  case Prim::Signum:
  case Prim::Floor:
  case Prim::Ceil:
  case Prim::Round:
  case Prim::Trunc:
  case Prim::Sqrt: return enclose<T>(point, at(op, al, loc), at(op, ah, loc));
  case Prim::Eq:
    return decided(point.get<bool>(), (al == ah && bl == bh && al == bl) || ah < bl || bh < al);
  case Prim::Ne:
    return decided(point.get<bool>(), (al == ah && bl == bh && al == bl) || ah < bl || bh < al);
  case Prim::Lt: return decided(point.get<bool>(), ah < bl || al >= bh);
  case Prim::Le: return decided(point.get<bool>(), ah <= bl || al > bh);
  case Prim::Gt: return decided(point.get<bool>(), al > bh || ah <= bl);
  case Prim::Ge: return decided(point.get<bool>(), al >= bh || ah < bl);
  case Prim::IsNaN:
  case Prim::IsInf: return decided(point.get<bool>(), true); // a determined float is finite
  case Prim::Atan2:
  case Prim::Pow: return two_operand_transcendental<T>(op, a, b, point, math_ulps, loc);
  default: return transcendental<T>(op, a, point, math_ulps, loc);
  }
}

} // namespace

const char* why_text(Why w) {
  switch (w) {
  case Why::None: return "determined";
  case Why::Overflow: return "the bound overflows";
  case Why::NaN: return "NaN in a bound";
  case Why::Undecided: return "a float comparison or cast the bound cannot decide";
  case Why::Branch: return "a condition the bound cannot decide";
  case Why::Index: return "an index, shape or target the bound cannot decide";
  case Why::Order:
    return "a reduction whose combiner is not + min max may give anything in "
           "another order";
  case Why::Unsupported: return "no bound for this operation on this interval";
  }
  return "?";
}

BScalar BScalar::exact(const Scalar& s) {
  BScalar r;
  r.point = s;
  if (s.is_nan()) { // exact_nan(): determined, NaN in every legal evaluation
    r.lo = r.hi = std::numeric_limits<double>::quiet_NaN();
    return r;
  }
  if (s.kind() == ScalarKind::F32) return enclose<float>(s, s.get<float>(), s.get<float>());
  if (s.kind() == ScalarKind::F64) return enclose<double>(s, s.get<double>(), s.get<double>());
  return r;
}

BScalar BScalar::undetermined(Why w) const {
  BScalar r = *this;
  if (r.why == Why::None) r.why = w;
  return r;
}

namespace {
// A primitive with an exact NaN operand (BScalar::exact_nan; the header's rules).
BScalar with_exact_nan(Prim op, const BScalar& a, const BScalar& b, const Scalar& point) {
  switch (op) {
  case Prim::Min:
  case Prim::Max: { // the non-NaN operand, which every legal evaluation gives too
    if (a.exact_nan() && b.exact_nan()) return BScalar::exact(point);
    BScalar r = a.exact_nan() ? b : a;
    if (!r.determined()) return BScalar{point, 0, 0, r.why};
    r.point = point;
    return r;
  }
  case Prim::Eq:
  case Prim::Ne:
  case Prim::Lt:
  case Prim::Le:
  case Prim::Gt:
  case Prim::Ge:
  case Prim::IsNaN:
  case Prim::IsInf: return BScalar::exact(point); // the same answer whatever the other operand
  case Prim::Add:
  case Prim::Sub:
  case Prim::Mul:
  case Prim::Div:
  case Prim::Neg:
  case Prim::Abs:
  case Prim::Sqrt:
  case Prim::Floor:
  case Prim::Ceil:
  case Prim::Round:
  case Prim::Trunc: // IEEE: NaN in, NaN out, whatever the other operand
    if (point.is_nan()) return BScalar::exact(point);
    break;
  default: break;
  }
  return BScalar{point, 0, 0, Why::NaN};
}
} // namespace

BScalar bound_prim(Prim op, const BScalar* args, int math_ulps, const SrcLoc& loc) {
  const BScalar& a = args[0];
  const BScalar& b = prim_arity(op) == 2 ? args[1] : args[0];
  Scalar points[2] = {a.point, b.point};
  Scalar point = apply_prim(op, points, loc); // raises as the interpreter does
  if (op == Prim::And || op == Prim::Or) {
    bool absorbing = op == Prim::Or; // `or` with a determined true, `and` with a determined false
    for (const BScalar* x : {&a, &b})
      if (x->determined() && x->point.get<bool>() == absorbing) return BScalar::exact(point);
  }
  if (a.exact_nan() || b.exact_nan()) return with_exact_nan(op, a, b, point);
  for (const BScalar* x : {&a, &b})
    if (!x->determined()) return BScalar{point, 0, 0, x->why};
  if (!a.is_float()) return BScalar::exact(point);
  if (a.point.kind() == ScalarKind::F32) return float_prim<float>(op, a, b, point, math_ulps, loc);
  return float_prim<double>(op, a, b, point, math_ulps, loc);
}

BScalar bound_cast(ScalarKind to, const BScalar& v) {
  Scalar point = apply_cast(to, v.point);
  if (!v.determined()) return BScalar{point, 0, 0, v.why};
  if (!v.is_float() || v.exact_nan()) return BScalar::exact(point);
  Scalar lo = apply_cast(to, v.point.kind() == ScalarKind::F32 ? Scalar::make(float(v.lo))
                                                               : Scalar::make(v.lo));
  Scalar hi = apply_cast(to, v.point.kind() == ScalarKind::F32 ? Scalar::make(float(v.hi))
                                                               : Scalar::make(v.hi));
  if (to == ScalarKind::F32) return enclose<float>(point, lo.get<float>(), hi.get<float>());
  if (to == ScalarKind::F64) return enclose<double>(point, lo.get<double>(), hi.get<double>());
  if (to == ScalarKind::Bool) // `/= 0`: decided when 0 is not inside, or the interval is 0
    return decided(point.get<bool>(), v.lo > 0 || v.hi < 0 || (v.lo == 0 && v.hi == 0));
  // Truncation and saturation are monotone: decided when both ends agree.
  return lo.identical(hi) ? BScalar::exact(point) : BScalar{point, 0, 0, Why::Undecided};
}

BScalar hull(const BScalar& a, const BScalar& b) {
  if (!a.determined()) return a;
  if (!b.determined()) return a.undetermined(b.why);
  if (!a.is_float()) return a.point.identical(b.point) ? a : a.undetermined(Why::Branch);
  if (a.exact_nan() || b.exact_nan())
    return a.exact_nan() && b.exact_nan() ? a : a.undetermined(Why::NaN);
  BScalar r = a;
  r.lo = std::min(a.lo, b.lo);
  r.hi = std::max(a.hi, b.hi);
  return r;
}

double ulps_down(ScalarKind kind, double v, int k) {
  return kind == ScalarKind::F32 ? double(step_down(float(v), k)) : step_down(v, k);
}
double ulps_up(ScalarKind kind, double v, int k) {
  return kind == ScalarKind::F32 ? double(step_up(float(v), k)) : step_up(v, k);
}

} // namespace strata
