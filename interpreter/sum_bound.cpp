#include "interpreter/sum_bound.h"

#include <cmath>
#include <limits>

namespace strata {
namespace {

// `v` rounded to T toward -inf (down) or +inf.
template <class T> T round_down(long double v) {
  T r = T(v);
  if ((long double)r > v) r = std::nextafter(r, -std::numeric_limits<T>::infinity());
  return r;
}
template <class T> T round_up(long double v) {
  T r = T(v);
  if ((long double)r < v) r = std::nextafter(r, std::numeric_limits<T>::infinity());
  return r;
}

template <class T>
BScalar enclose_sum(const Scalar& point, long double lo_pos, long double lo_neg, long double hi_pos,
                    long double hi_neg, long double abs, int64_t m) {
  BScalar r;
  r.point = point;
  if (m <= 1) { // one term: exactly itself (the long double sums are exact)
    r.lo = double(T(lo_pos + lo_neg));
    r.hi = double(T(hi_pos + hi_neg));
    return r;
  }
  constexpr long double u = std::numeric_limits<T>::epsilon() / 2;
  constexpr long double eps_ld = std::numeric_limits<long double>::epsilon();
  long double k = (long double)(m - 1);
  // (1 +- u)^k, each with a relative margin far above expl/log1pl's error.
  long double c_plus = std::exp(k * std::log1p(u)) * (1 + 64 * eps_ld);
  long double c_minus = std::exp(k * std::log1p(-u)) * (1 - 64 * eps_ld);
  long double pad = (long double)(m + 8) * eps_ld * abs * c_plus +
                    (long double)std::numeric_limits<T>::denorm_min();
  long double lo = c_minus * lo_pos + c_plus * lo_neg - pad;
  long double hi = c_plus * hi_pos + c_minus * hi_neg + pad;
  if (abs * c_plus * (1 + 1e-6L) >= (long double)std::numeric_limits<T>::max()) {
    r.why = Why::Overflow;
    return r;
  }
  r.lo = double(round_down<T>(lo));
  r.hi = double(round_up<T>(hi));
  return r;
}

} // namespace

void SumBound::add(const BScalar& term) {
  ++m_;
  if (!term.determined()) {
    if (why_ == Why::None) why_ = term.why;
    return;
  }
  if (term.exact_nan()) { // NaN + x is NaN, in every order
    nan_ = true;
    return;
  }
  long double lo = term.lo, hi = term.hi;
  (lo > 0 ? lo_pos_ : lo_neg_) += lo;
  (hi > 0 ? hi_pos_ : hi_neg_) += hi;
  abs_ += std::max(std::fabs(lo), std::fabs(hi));
}

BScalar SumBound::enclosure(const Scalar& point) const {
  if (why_ != Why::None) return BScalar{point, 0, 0, why_};
  if (nan_) return point.is_nan() ? BScalar::exact(point) : BScalar{point, 0, 0, Why::NaN};
  if (point.kind() == ScalarKind::F32)
    return enclose_sum<float>(point, lo_pos_, lo_neg_, hi_pos_, hi_neg_, abs_, m_);
  return enclose_sum<double>(point, lo_pos_, lo_neg_, hi_pos_, hi_neg_, abs_, m_);
}

} // namespace strata
