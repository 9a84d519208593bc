// The typed combining operations of native folds and scans (tbb/fold_native.h),
// one specialised functor per operation so loops see a fixed operator.
#pragma once

#include "core/prim.h"
#include "core/semantics.h"

namespace strata::tbbe {

template <class T, Prim prim> struct Op {
  T operator()(T a, T b) const {
    if constexpr (prim == Prim::Add)
      return sem::add(a, b);
    else if constexpr (prim == Prim::Mul)
      return sem::mul(a, b);
    else if constexpr (prim == Prim::Min)
      return sem::min(a, b);
    else if constexpr (prim == Prim::Max)
      return sem::max(a, b);
    else if constexpr (prim == Prim::BAnd)
      return T(a & b);
    else if constexpr (prim == Prim::BOr)
      return T(a | b);
    else
      return T(a ^ b);
  }
};

template <class T, class F> void with_op(Prim p, F&& f) {
  if constexpr (std::is_floating_point_v<T>) {
    if (p == Prim::Mul) return f(Op<T, Prim::Mul>{});
    return f(Op<T, Prim::Add>{});
  } else {
    switch (p) {
    case Prim::Add: return f(Op<T, Prim::Add>{});
    case Prim::Mul: return f(Op<T, Prim::Mul>{});
    case Prim::Min: return f(Op<T, Prim::Min>{});
    case Prim::Max: return f(Op<T, Prim::Max>{});
    case Prim::BAnd: return f(Op<T, Prim::BAnd>{});
    case Prim::BOr: return f(Op<T, Prim::BOr>{});
    default: return f(Op<T, Prim::BXor>{});
    }
  }
}

} // namespace strata::tbbe
