#include "interpreter/primitives.h"

#include "core/runtime_errors.h"
#include "core/semantics.h"

namespace strata {
namespace {

template <class T> Scalar numeric(Prim op, T a, T b) {
  switch (op) {
  case Prim::Add: return Scalar::make(sem::add(a, b));
  case Prim::Sub: return Scalar::make(sem::sub(a, b));
  case Prim::Mul: return Scalar::make(sem::mul(a, b));
  case Prim::Neg: return Scalar::make(sem::neg(a));
  case Prim::Abs: return Scalar::make(sem::abs(a));
  case Prim::Signum: return Scalar::make(sem::signum(a));
  case Prim::Min: return Scalar::make(sem::min(a, b));
  case Prim::Max: return Scalar::make(sem::max(a, b));
  default: break;
  }
  if constexpr (sem::is_int_v<T>) {
    switch (op) {
    case Prim::Quot: return Scalar::make(sem::quot(a, b));
    case Prim::Rem: return Scalar::make(sem::rem(a, b));
    case Prim::IDiv: return Scalar::make(sem::idiv(a, b));
    case Prim::Mod: return Scalar::make(sem::mod(a, b));
    case Prim::BAnd: return Scalar::make(T(a & b));
    case Prim::BOr: return Scalar::make(T(a | b));
    case Prim::BXor: return Scalar::make(T(a ^ b));
    case Prim::BNot: return Scalar::make(T(~a));
    case Prim::Shl: return Scalar::make(sem::shl(a, b));
    case Prim::Shr: return Scalar::make(sem::shr(a, b));
    case Prim::Popcount: return Scalar::make(sem::popcount(a));
    case Prim::Clz: return Scalar::make(sem::clz(a));
    case Prim::Ctz: return Scalar::make(sem::ctz(a));
    default: break;
    }
  }
  if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
    case Prim::Div: return Scalar::make(T(a / b));
    case Prim::Sqrt: return Scalar::make(T(std::sqrt(a)));
    case Prim::Exp: return Scalar::make(T(std::exp(a)));
    case Prim::Log: return Scalar::make(T(std::log(a)));
    case Prim::Sin: return Scalar::make(T(std::sin(a)));
    case Prim::Cos: return Scalar::make(T(std::cos(a)));
    case Prim::Tan: return Scalar::make(T(std::tan(a)));
    case Prim::Asin: return Scalar::make(T(std::asin(a)));
    case Prim::Acos: return Scalar::make(T(std::acos(a)));
    case Prim::Atan: return Scalar::make(T(std::atan(a)));
    case Prim::Sinh: return Scalar::make(T(std::sinh(a)));
    case Prim::Cosh: return Scalar::make(T(std::cosh(a)));
    case Prim::Tanh: return Scalar::make(T(std::tanh(a)));
    case Prim::Atan2: return Scalar::make(T(std::atan2(a, b)));
    case Prim::Pow: return Scalar::make(T(std::pow(a, b)));
    case Prim::Floor: return Scalar::make(T(std::floor(a)));
    case Prim::Ceil: return Scalar::make(T(std::ceil(a)));
    case Prim::Round: return Scalar::make(sem::round(a));
    case Prim::Trunc: return Scalar::make(T(std::trunc(a)));
    case Prim::IsNaN: return Scalar::make(bool(std::isnan(a)));
    case Prim::IsInf: return Scalar::make(bool(std::isinf(a)));
    default: break;
    }
  }
  throw Error(ErrorKind::Type, "primitive `" + std::string(prim_name(op)) + "` is not defined on " +
                                   std::string(scalar_name(kind_of<T>)));
}

template <class T> Scalar compare(Prim op, T a, T b) {
  switch (op) {
  case Prim::Eq: return Scalar::make(a == b);
  case Prim::Ne: return Scalar::make(a != b);
  case Prim::Lt: return Scalar::make(a < b);
  case Prim::Le: return Scalar::make(a <= b);
  case Prim::Gt: return Scalar::make(a > b);
  case Prim::Ge: return Scalar::make(a >= b);
  default: return Scalar();
  }
}

bool is_comparison(Prim op) {
  return op >= Prim::Eq && op <= Prim::Ge;
}
bool is_division(Prim op) {
  return op >= Prim::Quot && op <= Prim::Mod;
}

// Every float result is sem::canonical: one NaN whatever the operation.
Scalar canonical(const Scalar& v) {
  return v.visit([](auto x) { return Scalar::make(sem::canonical(x)); });
}

} // namespace

Scalar apply_prim(Prim op, const Scalar* args, const SrcLoc& loc) {
  const Scalar& a = args[0];
  const Scalar& b = prim_arity(op) == 2 ? args[1] : args[0];
  if (op == Prim::Not) return Scalar::make(!a.get<bool>());
  if (op == Prim::And) return Scalar::make(a.get<bool>() && b.get<bool>());
  if (op == Prim::Or) return Scalar::make(a.get<bool>() || b.get<bool>());
  return dispatch_kind(a.kind(), [&](auto tag) -> Scalar {
    using T = decltype(tag);
    T x = a.get<T>(), y = b.get<T>();
    if (is_comparison(op)) return compare(op, x, y);
    if constexpr (std::is_same_v<T, bool>) {
      throw Error(ErrorKind::Type, loc,
                  "primitive `" + std::string(prim_name(op)) + "` is not defined on bool");
    } else {
      if constexpr (sem::is_int_v<T>)
        if (is_division(op) && y == 0) throw division_by_zero(op, a, b, loc);
      return canonical(numeric(op, x, y));
    }
  });
}

Scalar apply_cast(ScalarKind to, const Scalar& v) {
  return dispatch_kind(to, [&](auto to_tag) {
    using To = decltype(to_tag);
    return v.visit([](auto from) { return Scalar::make(sem::canonical(sem::cast<To>(from))); });
  });
}

} // namespace strata
