// Scalar operations of the embedded front end (docs/language.md, Scalar expressions).
//
// Every primitive has a named function (`sqrt(x)`, `quot(a, b)`, `max(a, b)`)
// and, where C++ has one, an operator: `+ - * / % == != < <= > >= && || ! &
// | ^ ~ << >>` and unary `-`. On integers `/` and `%` are `quot` and `rem`
// (truncating, as in C++). Operands must have the same element type: there are
// no implicit conversions (use `cast<T>(e)`), and mixing types is a compile
// error with a message that says so. A C++ literal may stand for either
// operand when it converts without loss of kind (`x * 2`, `x + 0.5` for a
// float x; never a float literal for an integer).
//
// The expression forms are functions too: `cond` (if), `tup`/`get` (tuples),
// `ix` (indices), `cast`, `while_`, `shape`, `size`, `the`, `linear_index`
// (`!!`), `to_index`, `from_index`, `ignore`, `trace`.
#pragma once

#include <string>
#include <tuple>
#include <utility>

#include "frontend/handles.h"

namespace strata::fe {

namespace detail {
template <class R, class... Ts> Exp<R> prim(Prim op, const Exp<Ts>&... args) {
  return Exp<R>(node(ex::PrimApp{op, {args.node()...}}));
}
// An operand that is a handle or a literal of the handle's type.
template <class T, class U> Exp<T> operand(const U& v) {
  if constexpr (IsExp<U>::value)
    return v;
  else
    return Exp<T>(static_cast<T>(v));
}
} // namespace detail

// Turns a C++ scalar into an expression (a literal); an expression stays.
template <class T> Exp<T> lift(const Exp<T>& e) {
  return e;
}
template <ScalarType T> Exp<T> lift(T v) {
  return Exp<T>(v);
}

// ------------------------------------------------------------ binary operators
// For each operator: Exp op Exp (same T), Exp op literal, literal op Exp, and a
// catch-all for two different element types that fails with a clear message.
#define STRATA_FE_BINARY(NAME, OP, PRIM, RESULT, REQUIRE, REQUIRE_MSG)                             \
  template <class T> Exp<RESULT> NAME(const Exp<T>& a, const Exp<T>& b) {                          \
    static_assert(REQUIRE, "strata: " #OP ": " REQUIRE_MSG);                                       \
    return detail::prim<RESULT>(PRIM, a, b);                                                       \
  }                                                                                                \
  template <class T, class U>                                                                      \
  requires detail::LiteralFor<T, U> Exp<RESULT> NAME(const Exp<T>& a, U b) {                       \
    return NAME(a, Exp<T>(static_cast<T>(b)));                                                     \
  }                                                                                                \
  template <class T, class U>                                                                      \
  requires detail::LiteralFor<T, U> Exp<RESULT> NAME(U a, const Exp<T>& b) {                       \
    return NAME(Exp<T>(static_cast<T>(a)), b);                                                     \
  }                                                                                                \
  template <class T, class U>                                                                      \
  requires(!std::is_same_v<T, U>) Exp<T> NAME(const Exp<T>& a, const Exp<U>&) {                    \
    static_assert(detail::always_false<T>,                                                         \
                  "strata: the operands of " #OP " must have the same element type; there are "    \
                  "no implicit conversions, convert one with cast<T>(e)");                         \
    return a;                                                                                      \
  }

#define STRATA_FE_OPERATOR(OP, PRIM, RESULT, REQUIRE, MSG)                                         \
  STRATA_FE_BINARY(operator OP, OP, PRIM, RESULT, REQUIRE, MSG)
#define STRATA_FE_FUNCTION(NAME, PRIM, RESULT, REQUIRE, MSG)                                       \
  STRATA_FE_BINARY(NAME, NAME, PRIM, RESULT, REQUIRE, MSG)

#define STRATA_FE_NUMERIC NumericType<T>
#define STRATA_FE_INTEGRAL IntegralType<T>
#define STRATA_FE_FLOAT FloatType<T>
#define STRATA_FE_ANY ScalarType<T>
#define STRATA_FE_BOOL (std::is_same_v<T, bool>)

STRATA_FE_OPERATOR(+, Prim::Add, T, STRATA_FE_NUMERIC, "needs numeric operands")
STRATA_FE_OPERATOR(-, Prim::Sub, T, STRATA_FE_NUMERIC, "needs numeric operands")
STRATA_FE_OPERATOR(*, Prim::Mul, T, STRATA_FE_NUMERIC, "needs numeric operands")
STRATA_FE_OPERATOR(%, Prim::Rem, T, STRATA_FE_INTEGRAL, "needs integral operands")
STRATA_FE_OPERATOR(==, Prim::Eq, bool, STRATA_FE_ANY, "needs scalar operands")
STRATA_FE_OPERATOR(!=, Prim::Ne, bool, STRATA_FE_ANY, "needs scalar operands")
STRATA_FE_OPERATOR(<, Prim::Lt, bool, STRATA_FE_ANY, "needs scalar operands")
STRATA_FE_OPERATOR(<=, Prim::Le, bool, STRATA_FE_ANY, "needs scalar operands")
STRATA_FE_OPERATOR(>, Prim::Gt, bool, STRATA_FE_ANY, "needs scalar operands")
STRATA_FE_OPERATOR(>=, Prim::Ge, bool, STRATA_FE_ANY, "needs scalar operands")
STRATA_FE_OPERATOR(&&, Prim::And, bool, STRATA_FE_BOOL, "needs bool operands")
STRATA_FE_OPERATOR(||, Prim::Or, bool, STRATA_FE_BOOL, "needs bool operands")
STRATA_FE_OPERATOR(&, Prim::BAnd, T, STRATA_FE_INTEGRAL, "needs integral operands")
STRATA_FE_OPERATOR(|, Prim::BOr, T, STRATA_FE_INTEGRAL, "needs integral operands")
STRATA_FE_OPERATOR(^, Prim::BXor, T, STRATA_FE_INTEGRAL, "needs integral operands")
STRATA_FE_OPERATOR(<<, Prim::Shl, T, STRATA_FE_INTEGRAL, "needs integral operands")
STRATA_FE_OPERATOR(>>, Prim::Shr, T, STRATA_FE_INTEGRAL, "needs integral operands")
STRATA_FE_FUNCTION(min, Prim::Min, T, STRATA_FE_NUMERIC, "needs numeric operands")
STRATA_FE_FUNCTION(max, Prim::Max, T, STRATA_FE_NUMERIC, "needs numeric operands")
STRATA_FE_FUNCTION(quot, Prim::Quot, T, STRATA_FE_INTEGRAL, "needs integral operands")
STRATA_FE_FUNCTION(rem, Prim::Rem, T, STRATA_FE_INTEGRAL, "needs integral operands")
STRATA_FE_FUNCTION(div, Prim::IDiv, T, STRATA_FE_INTEGRAL, "needs integral operands")
STRATA_FE_FUNCTION(mod, Prim::Mod, T, STRATA_FE_INTEGRAL, "needs integral operands")
STRATA_FE_FUNCTION(fdiv, Prim::Div, T, STRATA_FE_FLOAT, "needs floating-point operands")
STRATA_FE_FUNCTION(shl, Prim::Shl, T, STRATA_FE_INTEGRAL, "needs integral operands")
STRATA_FE_FUNCTION(shr, Prim::Shr, T, STRATA_FE_INTEGRAL, "needs integral operands")
STRATA_FE_FUNCTION(atan2, Prim::Atan2, T, STRATA_FE_FLOAT, "needs floating-point operands")
STRATA_FE_FUNCTION(pow, Prim::Pow, T, STRATA_FE_FLOAT, "needs floating-point operands")

// `/`: floating division on floats, `quot` (truncating, as in C++) on integers.
template <class T> Exp<T> operator/(const Exp<T>& a, const Exp<T>& b) {
  static_assert(NumericType<T>, "strata: / needs numeric operands");
  return detail::prim<T>(FloatType<T> ? Prim::Div : Prim::Quot, a, b);
}
template <class T, class U>
requires detail::LiteralFor<T, U> Exp<T>
operator/(const Exp<T>& a, U b) {
  return a / Exp<T>(static_cast<T>(b));
}
template <class T, class U>
requires detail::LiteralFor<T, U> Exp<T>
operator/(U a, const Exp<T>& b) {
  return Exp<T>(static_cast<T>(a)) / b;
}
template <class T, class U>
requires(!std::is_same_v<T, U>) Exp<T>
operator/(const Exp<T>& a, const Exp<U>&) {
  static_assert(detail::always_false<T>,
                "strata: the operands of / must have the same element type; there are no "
                "implicit conversions, convert one with cast<T>(e)");
  return a;
}

#undef STRATA_FE_NUMERIC
#undef STRATA_FE_INTEGRAL
#undef STRATA_FE_FLOAT
#undef STRATA_FE_ANY
#undef STRATA_FE_BOOL
#undef STRATA_FE_OPERATOR
#undef STRATA_FE_FUNCTION
#undef STRATA_FE_BINARY

// ------------------------------------------------------------- unary operations
#define STRATA_FE_UNARY(NAME, PRIM, RESULT, REQUIRE, MSG)                                          \
  template <class T> Exp<RESULT> NAME(const Exp<T>& a) {                                           \
    static_assert(REQUIRE, "strata: " #NAME ": " MSG);                                             \
    return detail::prim<RESULT>(PRIM, a);                                                          \
  }
STRATA_FE_UNARY(operator-, Prim::Neg, T, NumericType<T>, "needs a numeric operand")
STRATA_FE_UNARY(operator!, Prim::Not, bool, (std::is_same_v<T, bool>), "needs a bool operand")
STRATA_FE_UNARY(operator~, Prim::BNot, T, IntegralType<T>, "needs an integral operand")
STRATA_FE_UNARY(neg, Prim::Neg, T, NumericType<T>, "needs a numeric operand")
STRATA_FE_UNARY(abs, Prim::Abs, T, NumericType<T>, "needs a numeric operand")
STRATA_FE_UNARY(signum, Prim::Signum, T, NumericType<T>, "needs a numeric operand")
STRATA_FE_UNARY(bnot, Prim::BNot, T, IntegralType<T>, "needs an integral operand")
STRATA_FE_UNARY(popcount, Prim::Popcount, T, IntegralType<T>, "needs an integral operand")
STRATA_FE_UNARY(clz, Prim::Clz, T, IntegralType<T>, "needs an integral operand")
STRATA_FE_UNARY(ctz, Prim::Ctz, T, IntegralType<T>, "needs an integral operand")
STRATA_FE_UNARY(sqrt, Prim::Sqrt, T, FloatType<T>, "needs a floating-point operand")
STRATA_FE_UNARY(exp, Prim::Exp, T, FloatType<T>, "needs a floating-point operand")
STRATA_FE_UNARY(log, Prim::Log, T, FloatType<T>, "needs a floating-point operand")
STRATA_FE_UNARY(sin, Prim::Sin, T, FloatType<T>, "needs a floating-point operand")
STRATA_FE_UNARY(cos, Prim::Cos, T, FloatType<T>, "needs a floating-point operand")
STRATA_FE_UNARY(tan, Prim::Tan, T, FloatType<T>, "needs a floating-point operand")
STRATA_FE_UNARY(asin, Prim::Asin, T, FloatType<T>, "needs a floating-point operand")
STRATA_FE_UNARY(acos, Prim::Acos, T, FloatType<T>, "needs a floating-point operand")
STRATA_FE_UNARY(atan, Prim::Atan, T, FloatType<T>, "needs a floating-point operand")
STRATA_FE_UNARY(sinh, Prim::Sinh, T, FloatType<T>, "needs a floating-point operand")
STRATA_FE_UNARY(cosh, Prim::Cosh, T, FloatType<T>, "needs a floating-point operand")
STRATA_FE_UNARY(tanh, Prim::Tanh, T, FloatType<T>, "needs a floating-point operand")
STRATA_FE_UNARY(floor, Prim::Floor, T, FloatType<T>, "needs a floating-point operand")
STRATA_FE_UNARY(ceil, Prim::Ceil, T, FloatType<T>, "needs a floating-point operand")
STRATA_FE_UNARY(round, Prim::Round, T, FloatType<T>, "needs a floating-point operand")
STRATA_FE_UNARY(trunc, Prim::Trunc, T, FloatType<T>, "needs a floating-point operand")
STRATA_FE_UNARY(isnan, Prim::IsNaN, bool, FloatType<T>, "needs a floating-point operand")
STRATA_FE_UNARY(isinf, Prim::IsInf, bool, FloatType<T>, "needs a floating-point operand")
#undef STRATA_FE_UNARY

// -------------------------------------------------------------- expression forms

// `(if c t e)`: only the chosen branch is evaluated.
template <class A, class B> auto cond(const Exp<bool>& c, const A& t, const B& e) {
  using T = std::conditional_t<detail::IsExp<A>::value, A, B>;
  static_assert(detail::IsExp<T>::value, "strata: cond: at least one branch must be an Exp");
  using E = typename detail::IsExp<T>::elem;
  static_assert((detail::IsExp<A>::value ? std::is_same_v<A, Exp<E>> : detail::LiteralFor<E, A>)&&(
                    detail::IsExp<B>::value ? std::is_same_v<B, Exp<E>> : detail::LiteralFor<E, B>),
                "strata: cond: both branches must have the same element type");
  return Exp<E>(
      detail::node(ex::If{c.node(), detail::operand<E>(t).node(), detail::operand<E>(e).node()}));
}

// `(tuple e ...)`: components may be expressions or C++ scalars.
template <class... Ts> auto tup(const Ts&... elems) {
  using R = std::tuple<typename decltype(lift(elems))::type...>;
  return Exp<R>(detail::node(ex::Tuple{{lift(elems).node()...}}));
}

// `(proj K e)`: the K-th component of a tuple (indices too: `get<0>(shape(xs))`).
template <size_t K, class T> auto get(const Exp<T>& t) {
  static_assert(K < std::tuple_size_v<T>, "strata: get<K>: K is out of range for this tuple");
  using R = std::tuple_element_t<K, T>;
  return Exp<R>(detail::node(ex::Proj{int(K), t.node()}));
}

// `(ix e ...)`: an index or shape from i64 expressions or C++ integers.
template <class... Ts> Exp<Ix<sizeof...(Ts)>> ix(const Ts&... components) {
  static_assert(((std::is_integral_v<Ts> || std::is_same_v<Ts, Exp<int64_t>>)&&...),
                "strata: ix: components must be Exp<int64_t> or C++ integers");
  return Exp<Ix<sizeof...(Ts)>>(
      detail::node(ex::Index{{detail::operand<int64_t>(components).node()...}}));
}

// `(cast T e)`.
template <class T, class U> Exp<T> cast(const Exp<U>& e) {
  static_assert(ScalarType<T> && ScalarType<U>, "strata: cast converts between scalar types");
  return Exp<T>(detail::node(ex::Cast{kind_of<T>, e.node()}));
}

// `(while cond step init)`: a sequential loop over a state of type T.
template <class C, class S, class T> Exp<T> while_(C cond_fn, S step_fn, const Exp<T>& init) {
  STRATA_FE_CHECK_FN("while_ condition", C, Exp<T>);
  STRATA_FE_CHECK_FN("while_ step", S, Exp<T>);
  static_assert(std::is_same_v<detail::call_result<C, Exp<T>>, Exp<bool>>,
                "strata: while_: the condition must return Exp<bool>");
  static_assert(
      std::is_same_v<typename detail::ReturnedExp<detail::call_result<S, Exp<T>>>::elem, T>,
      "strata: while_: the step must return the state type");
  auto c = detail::trace<Exp<T>>(cond_fn);
  auto s = detail::trace<Exp<T>>(step_fn);
  return Exp<T>(detail::node(ex::While{std::move(c.first), std::move(s.first), init.node()}));
}

// `(shape A)` `(size A)` `(the A)` `(!! A i)`: reads of an array.
template <class A> Exp<Ix<A::rank>> shape(const Acc<A>& a) {
  static_assert(ArrayType<A>, "strata: shape needs one array, not a tuple of arrays");
  return Exp<Ix<A::rank>>(detail::node(ex::ShapeOf{a.node()}));
}
template <class A> Exp<int64_t> size(const Acc<A>& a) {
  static_assert(ArrayType<A>, "strata: size needs one array, not a tuple of arrays");
  return Exp<int64_t>(detail::node(ex::SizeOf{a.node()}));
}
template <class A> Exp<typename A::elem> the(const Acc<A>& a) {
  static_assert(ArrayType<A> && A::rank == 0, "strata: the reads an array of rank 0");
  return Exp<typename A::elem>(detail::node(ex::The{a.node()}));
}
template <class A, class I> Exp<typename A::elem> linear_index(const Acc<A>& a, const I& i) {
  static_assert(ArrayType<A>, "strata: linear_index reads one array, not a tuple of arrays");
  return Exp<typename A::elem>(
      detail::node(ex::LinearRead{a.node(), detail::operand<int64_t>(i).node()}));
}
// `(! A ix)`, the same as a[ix].
template <class A, class I> Exp<typename A::elem> index(const Acc<A>& a, const Exp<I>& i) {
  return a[i];
}

// `(to-index sh ix)` and `(from-index sh i)`: row-major index <-> linear position.
template <class S> Exp<int64_t> to_index(const Exp<S>& sh, const Exp<S>& i) {
  static_assert(ix_rank<S> >= 0, "strata: to_index takes a shape and an index of the same rank");
  return Exp<int64_t>(detail::node(ex::ToIndex{sh.node(), i.node()}));
}
template <class S, class I> Exp<S> from_index(const Exp<S>& sh, const I& i) {
  static_assert(ix_rank<S> >= 0, "strata: from_index takes a shape (an Exp<Ix<R>>)");
  return Exp<S>(detail::node(ex::FromIndex{sh.node(), detail::operand<int64_t>(i).node()}));
}

// `(ignore R)`: the target index that drops an element in `permute`.
template <int R> Exp<Ix<R>> ignore() {
  return Exp<Ix<R>>(detail::node(ex::Ignore{R}));
}

// `(trace "label" e)`.
template <class T> Exp<T> trace(const std::string& label, const Exp<T>& e) {
  return Exp<T>(detail::node(ex::Trace{label, e.node()}));
}

} // namespace strata::fe
