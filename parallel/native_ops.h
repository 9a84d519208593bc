// The typed combining operations of the native paths — tbb's folds and scans
// (tbb/fold_native.h, tbb/scan_native.h) and permute for both CPU engines
// (parallel/permute_native.h) — one specialised functor per operation so
// loops see a fixed operator. Shared by tbb and jit, owned by neither.
#pragma once

#include <limits>
#include <type_traits>

#include "core/prim.h"
#include "core/semantics.h"

namespace strata::parallel {

// The combining operation on values of type T, and its identity.
template <class T, Prim prim> struct Op {
  T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>)
      return prim == Prim::And ? (a && b) : (a || b);
    else if constexpr (prim == Prim::Add)
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
      return T(a ^ b); // BXor
  }
  T identity() const {
    if constexpr (std::is_same_v<T, bool>) {
      return prim == Prim::And;
    } else if constexpr (std::is_floating_point_v<T>) {
      return prim == Prim::Mul ? T(1) : T(0); // the native paths take only + and * on floats
    } else {
      switch (prim) {
      case Prim::Mul: return T(1);
      case Prim::Min: return std::numeric_limits<T>::max();
      case Prim::Max: return std::numeric_limits<T>::lowest();
      case Prim::BAnd: return T(~uint64_t(0));
      default: return T(0); // Add, BOr, BXor
      }
    }
  }
};

// Calls f with the functor of `p`: and/or on bool, + and * on floats, the
// seven integer operations on integers (what the native paths recognise).
template <class T, class F> void with_op(Prim p, F&& f) {
  if constexpr (std::is_same_v<T, bool>) {
    if (p == Prim::And) return f(Op<T, Prim::And>{});
    return f(Op<T, Prim::Or>{});
  } else if constexpr (std::is_floating_point_v<T>) {
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

} // namespace strata::parallel
