#include "tbb/batch_ops.h"

#include "core/runtime_errors.h"
#include "core/semantics.h"

namespace strata::tbbe {
namespace {

// Every float result is sem::canonical (one NaN whatever the operation):
// a select in the vectorised loop.
template <class T, class F> Instr unary(int a, int out, F f) {
  using R = decltype(f(T{}));
  return [=](Frame& fr, const Selection& s) {
    const T* x = fr.reg<T>(a);
    R* o = fr.reg<R>(out);
    for_each_lane(s, [&](int i) { o[i] = sem::canonical(f(x[i])); });
  };
}

// `c` (ConstantOperands): a constant operand is read once, as a scalar.
template <class T, class F> Instr binary(int a, int b, int out, unsigned c, F f) {
  using R = decltype(f(T{}, T{}));
  if (c == (kFirstConstant | kSecondConstant)) c = kNoConstant; // rare: both in registers
  if (c & kSecondConstant)
    return [=](Frame& fr, const Selection& s) {
      const T* x = fr.reg<T>(a);
      const T y = fr.reg<T>(b)[0];
      R* o = fr.reg<R>(out);
      for_each_lane(s, [&](int i) { o[i] = sem::canonical(f(x[i], y)); });
    };
  if (c & kFirstConstant)
    return [=](Frame& fr, const Selection& s) {
      const T x = fr.reg<T>(a)[0];
      const T* y = fr.reg<T>(b);
      R* o = fr.reg<R>(out);
      for_each_lane(s, [&](int i) { o[i] = sem::canonical(f(x, y[i])); });
    };
  return [=](Frame& fr, const Selection& s) {
    const T* x = fr.reg<T>(a);
    const T* y = fr.reg<T>(b);
    R* o = fr.reg<R>(out);
    for_each_lane(s, [&](int i) { o[i] = sem::canonical(f(x[i], y[i])); });
  };
}

// Integer division: checks the divisor of every lane first, so the error
// names the operands of the first failing lane of the selection.
template <class T, class F> Instr division(Prim op, int a, int b, int out, SrcLoc loc, F f) {
  return [=](Frame& fr, const Selection& s) {
    const T* x = fr.reg<T>(a);
    const T* y = fr.reg<T>(b);
    T* o = fr.reg<T>(out);
    for_each_lane(s, [&](int i) {
      if (y[i] == 0) throw division_by_zero(op, Scalar::make<T>(x[i]), Scalar::make<T>(y[i]), loc);
    });
    for_each_lane(s, [&](int i) { o[i] = sem::canonical(f(x[i], y[i])); });
  };
}

template <class T> Instr comparison(Prim op, int a, int b, int out, unsigned c) {
  switch (op) {
  case Prim::Eq: return binary<T>(a, b, out, c, [](T x, T y) { return x == y; });
  case Prim::Ne: return binary<T>(a, b, out, c, [](T x, T y) { return x != y; });
  case Prim::Lt: return binary<T>(a, b, out, c, [](T x, T y) { return x < y; });
  case Prim::Le: return binary<T>(a, b, out, c, [](T x, T y) { return x <= y; });
  case Prim::Gt: return binary<T>(a, b, out, c, [](T x, T y) { return x > y; });
  default: return binary<T>(a, b, out, c, [](T x, T y) { return x >= y; });
  }
}

template <class T> Instr arithmetic(Prim op, int a, int b, int out, unsigned c) {
  switch (op) {
  case Prim::Add: return binary<T>(a, b, out, c, [](T x, T y) { return sem::add(x, y); });
  case Prim::Sub: return binary<T>(a, b, out, c, [](T x, T y) { return sem::sub(x, y); });
  case Prim::Mul: return binary<T>(a, b, out, c, [](T x, T y) { return sem::mul(x, y); });
  case Prim::Min: return binary<T>(a, b, out, c, [](T x, T y) { return sem::min(x, y); });
  case Prim::Max: return binary<T>(a, b, out, c, [](T x, T y) { return sem::max(x, y); });
  case Prim::Neg: return unary<T>(a, out, [](T x) { return sem::neg(x); });
  case Prim::Abs: return unary<T>(a, out, [](T x) { return sem::abs(x); });
  case Prim::Signum: return unary<T>(a, out, [](T x) { return sem::signum(x); });
  default: return nullptr;
  }
}

template <class T> Instr integral(Prim op, int a, int b, int out, unsigned c, const SrcLoc& loc) {
  switch (op) {
  case Prim::Quot: return division<T>(op, a, b, out, loc, [](T x, T y) { return sem::quot(x, y); });
  case Prim::Rem: return division<T>(op, a, b, out, loc, [](T x, T y) { return sem::rem(x, y); });
  case Prim::IDiv: return division<T>(op, a, b, out, loc, [](T x, T y) { return sem::idiv(x, y); });
  case Prim::Mod: return division<T>(op, a, b, out, loc, [](T x, T y) { return sem::mod(x, y); });
  case Prim::BAnd: return binary<T>(a, b, out, c, [](T x, T y) { return T(x & y); });
  case Prim::BOr: return binary<T>(a, b, out, c, [](T x, T y) { return T(x | y); });
  case Prim::BXor: return binary<T>(a, b, out, c, [](T x, T y) { return T(x ^ y); });
  case Prim::BNot: return unary<T>(a, out, [](T x) { return T(~x); });
  case Prim::Shl: return binary<T>(a, b, out, c, [](T x, T y) { return sem::shl(x, y); });
  case Prim::Shr: return binary<T>(a, b, out, c, [](T x, T y) { return sem::shr(x, y); });
  case Prim::Popcount: return unary<T>(a, out, [](T x) { return sem::popcount(x); });
  case Prim::Clz: return unary<T>(a, out, [](T x) { return sem::clz(x); });
  case Prim::Ctz: return unary<T>(a, out, [](T x) { return sem::ctz(x); });
  default: return nullptr;
  }
}

template <class T> Instr floating(Prim op, int a, int b, int out, unsigned c) {
  switch (op) {
  case Prim::Div: return binary<T>(a, b, out, c, [](T x, T y) { return T(x / y); });
  case Prim::Sqrt: return unary<T>(a, out, [](T x) { return T(std::sqrt(x)); });
  case Prim::Exp: return unary<T>(a, out, [](T x) { return T(std::exp(x)); });
  case Prim::Log: return unary<T>(a, out, [](T x) { return T(std::log(x)); });
  case Prim::Sin: return unary<T>(a, out, [](T x) { return T(std::sin(x)); });
  case Prim::Cos: return unary<T>(a, out, [](T x) { return T(std::cos(x)); });
  case Prim::Tan: return unary<T>(a, out, [](T x) { return T(std::tan(x)); });
  case Prim::Asin: return unary<T>(a, out, [](T x) { return T(std::asin(x)); });
  case Prim::Acos: return unary<T>(a, out, [](T x) { return T(std::acos(x)); });
  case Prim::Atan: return unary<T>(a, out, [](T x) { return T(std::atan(x)); });
  case Prim::Sinh: return unary<T>(a, out, [](T x) { return T(std::sinh(x)); });
  case Prim::Cosh: return unary<T>(a, out, [](T x) { return T(std::cosh(x)); });
  case Prim::Tanh: return unary<T>(a, out, [](T x) { return T(std::tanh(x)); });
  case Prim::Atan2: return binary<T>(a, b, out, c, [](T x, T y) { return T(std::atan2(x, y)); });
  case Prim::Pow: return binary<T>(a, b, out, c, [](T x, T y) { return T(std::pow(x, y)); });
  case Prim::Floor: return unary<T>(a, out, [](T x) { return T(std::floor(x)); });
  case Prim::Ceil: return unary<T>(a, out, [](T x) { return T(std::ceil(x)); });
  case Prim::Round: return unary<T>(a, out, [](T x) { return sem::round(x); });
  case Prim::Trunc: return unary<T>(a, out, [](T x) { return T(std::trunc(x)); });
  case Prim::IsNaN: return unary<T>(a, out, [](T x) { return bool(std::isnan(x)); });
  case Prim::IsInf: return unary<T>(a, out, [](T x) { return bool(std::isinf(x)); });
  default: return nullptr;
  }
}

bool is_comparison(Prim op) {
  return op >= Prim::Eq && op <= Prim::Ge;
}

} // namespace

Instr prim_instr(Prim op, ScalarKind k, int a, int b, int out, const SrcLoc& loc,
                 unsigned constants) {
  if (op == Prim::Not) return unary<bool>(a, out, [](bool x) { return !x; });
  Instr instr = dispatch_kind(k, [&](auto tag) -> Instr {
    using T = decltype(tag);
    if (is_comparison(op)) return comparison<T>(op, a, b, out, constants);
    if constexpr (!std::is_same_v<T, bool>) {
      if (Instr i = arithmetic<T>(op, a, b, out, constants)) return i;
      if constexpr (sem::is_int_v<T>) return integral<T>(op, a, b, out, constants, loc);
      if constexpr (std::is_floating_point_v<T>) return floating<T>(op, a, b, out, constants);
    }
    return nullptr;
  });
  if (!instr)
    throw Error(ErrorKind::Type, loc,
                "primitive `" + std::string(prim_name(op)) + "` is not defined on " +
                    std::string(scalar_name(k)));
  return instr;
}

Instr cast_instr(ScalarKind from, ScalarKind to, int a, int out) {
  return dispatch_kind(from, [&](auto from_tag) {
    using From = decltype(from_tag);
    return dispatch_kind(to, [&](auto to_tag) -> Instr {
      using To = decltype(to_tag);
      return unary<From>(a, out, [](From x) { return sem::cast<To>(x); });
    });
  });
}

Instr copy_instr(ScalarKind k, int from, int to) {
  return dispatch_kind(k, [&](auto tag) -> Instr {
    using T = decltype(tag);
    return unary<T>(from, to, [](T x) { return x; });
  });
}

Instr fill_instr(const Scalar& value, int reg) {
  return value.visit([&](auto v) -> Instr {
    using T = decltype(v);
    return [v, reg](Frame& f, const Selection&) {
      T* o = f.reg<T>(reg);
      for (int i = 0; i < f.lanes(); ++i)
        o[i] = v;
    };
  });
}

} // namespace strata::tbbe
