// The everyday forms of the embedded front end (docs/language.md, Everyday
// forms): each builds the same call the text form writes (`(sum a)`,
// `(filter p a)`, ...), which type checking expands (core/expand.h), so a
// program means the same written in C++ or in text. Functions are C++
// functions: call them while building the program, and the sharing recovery
// binds what they share.
//
// Names follow Accelerate: `sum product maximum minimum and_ or_ any all`
// (whole-array reductions), `take drop init tail reverse transpose concat`
// (`++`), `iota enumFromN enumFromStepN`, `postscanl postscanr`, `gather
// scatter`, `compact filter` (a tuple of the kept elements and each row's
// count), `scanl1Seg scanr1Seg scanlSeg scanrSeg`, `stencil2` (one window
// shape for both arrays), `zipWith` over three or more arrays, and the scalar
// loop `for_(n, init, f)`.
#pragma once

#include <memory>
#include <tuple>
#include <vector>

#include "frontend/collective.h"

namespace strata::fe {

namespace detail {
inline Operand array_operand(const AccPtr& a) {
  return Operand{a, nullptr, nullptr};
}
inline Operand scalar_operand(const ExpPtr& e) {
  return Operand{nullptr, e, nullptr};
}
inline Operand fn_operand(Lambda l) {
  return Operand{nullptr, nullptr, std::make_shared<Lambda>(std::move(l))};
}
template <class R> Acc<R> sugar(const char* name, std::vector<Operand> ops) {
  return acc<R>(ac::Call{name, std::move(ops)});
}
template <class A> using Rank0 = Array<Dim<0>, Elem<A>>;
template <class A> constexpr void need_numbers(const char* = "") {
  static_assert(ArrayType<A> && NumericType<Elem<A>>, "strata: expected an array of numbers");
}
template <class A> constexpr void need_bools() {
  static_assert(ArrayType<A> && std::is_same_v<Elem<A>, bool>, "strata: expected an array of bool");
}
template <class A> constexpr void need_rows() {
  static_assert(ArrayType<A> && A::rank >= 1, "strata: expected an array of rank at least 1");
}
} // namespace detail

// ------------------------------------------------ whole-array reductions
template <class A> Acc<detail::Rank0<A>> sum(const Acc<A>& a) {
  detail::need_numbers<A>();
  return detail::sugar<detail::Rank0<A>>("sum", {detail::array_operand(a.node())});
}
template <class A> Acc<detail::Rank0<A>> product(const Acc<A>& a) {
  detail::need_numbers<A>();
  return detail::sugar<detail::Rank0<A>>("product", {detail::array_operand(a.node())});
}
template <class A> Acc<detail::Rank0<A>> maximum(const Acc<A>& a) {
  detail::need_numbers<A>();
  return detail::sugar<detail::Rank0<A>>("maximum", {detail::array_operand(a.node())});
}
template <class A> Acc<detail::Rank0<A>> minimum(const Acc<A>& a) {
  detail::need_numbers<A>();
  return detail::sugar<detail::Rank0<A>>("minimum", {detail::array_operand(a.node())});
}
template <class A> Acc<Scalar<bool>> and_(const Acc<A>& a) {
  detail::need_bools<A>();
  return detail::sugar<Scalar<bool>>("and", {detail::array_operand(a.node())});
}
template <class A> Acc<Scalar<bool>> or_(const Acc<A>& a) {
  detail::need_bools<A>();
  return detail::sugar<Scalar<bool>>("or", {detail::array_operand(a.node())});
}
template <class P, class A> Acc<Scalar<bool>> any(P p, const Acc<A>& a) {
  STRATA_FE_CHECK_FN("any", P, Exp<detail::Elem<A>>);
  auto f = detail::trace<Exp<detail::Elem<A>>>(p).first;
  return detail::sugar<Scalar<bool>>(
      "any", {detail::fn_operand(std::move(f)), detail::array_operand(a.node())});
}
template <class P, class A> Acc<Scalar<bool>> all(P p, const Acc<A>& a) {
  STRATA_FE_CHECK_FN("all", P, Exp<detail::Elem<A>>);
  auto f = detail::trace<Exp<detail::Elem<A>>>(p).first;
  return detail::sugar<Scalar<bool>>(
      "all", {detail::fn_operand(std::move(f)), detail::array_operand(a.node())});
}

// ------------------------------------------------------ rows
template <class N, class A> Acc<A> take(const N& n, const Acc<A>& a) {
  detail::need_rows<A>();
  return detail::sugar<A>(
      "take", {detail::scalar_operand(detail::i64(n)), detail::array_operand(a.node())});
}
template <class N, class A> Acc<A> drop(const N& n, const Acc<A>& a) {
  detail::need_rows<A>();
  return detail::sugar<A>(
      "drop", {detail::scalar_operand(detail::i64(n)), detail::array_operand(a.node())});
}
template <class A> Acc<A> init(const Acc<A>& a) {
  detail::need_rows<A>();
  return detail::sugar<A>("init", {detail::array_operand(a.node())});
}
template <class A> Acc<A> tail(const Acc<A>& a) {
  detail::need_rows<A>();
  return detail::sugar<A>("tail", {detail::array_operand(a.node())});
}
template <class A> Acc<A> reverse(const Acc<A>& a) {
  detail::need_rows<A>();
  return detail::sugar<A>("reverse", {detail::array_operand(a.node())});
}
template <class A> Acc<A> transpose(const Acc<A>& a) {
  static_assert(ArrayType<A> && A::rank == 2, "strata: transpose: expected an array of rank 2");
  return detail::sugar<A>("transpose", {detail::array_operand(a.node())});
}
// `(++ a b)`
template <class A> Acc<A> concat(const Acc<A>& a, const Acc<A>& b) {
  detail::need_rows<A>();
  return detail::sugar<A>("++", {detail::array_operand(a.node()), detail::array_operand(b.node())});
}

// ----------------------------------------------------------- enumerations
template <class N> Acc<Vector<int64_t>> iota(const N& n) {
  return detail::sugar<Vector<int64_t>>("iota", {detail::scalar_operand(detail::i64(n))});
}
template <class S, class T> auto enumFromN(const Exp<S>& sh, const Exp<T>& x) {
  static_assert(ix_rank<S> >= 0 && NumericType<T>, "strata: enumFromN: a shape and a number");
  return detail::sugar<Array<Dim<ix_rank<S>>, T>>(
      "enumFromN", {detail::scalar_operand(sh.node()), detail::scalar_operand(x.node())});
}
template <class S, class T>
auto enumFromStepN(const Exp<S>& sh, const Exp<T>& x, const Exp<T>& step) {
  static_assert(ix_rank<S> >= 0 && NumericType<T>, "strata: enumFromStepN: a shape and numbers");
  return detail::sugar<Array<Dim<ix_rank<S>>, T>>(
      "enumFromStepN", {detail::scalar_operand(sh.node()), detail::scalar_operand(x.node()),
                        detail::scalar_operand(step.node())});
}

// ---------------------------------------------------------------- scans
template <class F, class Z, class A> Acc<A> postscanl(F f, const Z& seed, const Acc<A>& a) {
  detail::need_rows<A>();
  using E = detail::Elem<A>;
  return detail::sugar<A>("postscanl", {detail::fn_operand(detail::combiner<E>(f)),
                                        detail::scalar_operand(detail::operand<E>(seed).node()),
                                        detail::array_operand(a.node())});
}
template <class F, class Z, class A> Acc<A> postscanr(F f, const Z& seed, const Acc<A>& a) {
  detail::need_rows<A>();
  using E = detail::Elem<A>;
  return detail::sugar<A>("postscanr", {detail::fn_operand(detail::combiner<E>(f)),
                                        detail::scalar_operand(detail::operand<E>(seed).node()),
                                        detail::array_operand(a.node())});
}
template <class F, class A> Acc<A> scanl1Seg(F f, const Acc<A>& a, const Acc<Vector<int64_t>>& s) {
  detail::need_rows<A>();
  return detail::sugar<A>("scanl1seg",
                          {detail::fn_operand(detail::combiner<detail::Elem<A>>(f)),
                           detail::array_operand(a.node()), detail::array_operand(s.node())});
}
template <class F, class A> Acc<A> scanr1Seg(F f, const Acc<A>& a, const Acc<Vector<int64_t>>& s) {
  detail::need_rows<A>();
  return detail::sugar<A>("scanr1seg",
                          {detail::fn_operand(detail::combiner<detail::Elem<A>>(f)),
                           detail::array_operand(a.node()), detail::array_operand(s.node())});
}
template <class F, class Z, class A>
Acc<A> scanlSeg(F f, const Z& seed, const Acc<A>& a, const Acc<Vector<int64_t>>& s) {
  detail::need_rows<A>();
  using E = detail::Elem<A>;
  return detail::sugar<A>("scanlseg",
                          {detail::fn_operand(detail::combiner<E>(f)),
                           detail::scalar_operand(detail::operand<E>(seed).node()),
                           detail::array_operand(a.node()), detail::array_operand(s.node())});
}
template <class F, class Z, class A>
Acc<A> scanrSeg(F f, const Z& seed, const Acc<A>& a, const Acc<Vector<int64_t>>& s) {
  detail::need_rows<A>();
  using E = detail::Elem<A>;
  return detail::sugar<A>("scanrseg",
                          {detail::fn_operand(detail::combiner<E>(f)),
                           detail::scalar_operand(detail::operand<E>(seed).node()),
                           detail::array_operand(a.node()), detail::array_operand(s.node())});
}

// ------------------------------------------------- gather, scatter, compact
template <class I, class A> auto gather(const Acc<I>& idx, const Acc<A>& a) {
  static_assert(ArrayType<I> && std::is_same_v<detail::Elem<I>, int64_t>,
                "strata: gather: the indices must be an array of int64_t");
  static_assert(ArrayType<A> && A::rank == 1, "strata: gather: the source must be a vector");
  return detail::sugar<Array<Dim<I::rank>, detail::Elem<A>>>(
      "gather", {detail::array_operand(idx.node()), detail::array_operand(a.node())});
}
template <class E>
Acc<Vector<E>> scatter(const Acc<Vector<int64_t>>& idx, const Acc<Vector<E>>& defaults,
                       const Acc<Vector<E>>& src) {
  return detail::sugar<Vector<E>>("scatter", {detail::array_operand(idx.node()),
                                              detail::array_operand(defaults.node()),
                                              detail::array_operand(src.node())});
}
template <class B, class A> auto compact(const Acc<B>& flags, const Acc<A>& a) {
  detail::need_rows<A>();
  static_assert(ArrayType<B> && B::rank == A::rank && std::is_same_v<detail::Elem<B>, bool>,
                "strata: compact: the flags must be bool, of the array's rank");
  using R = std::tuple<Vector<detail::Elem<A>>, Array<Dim<A::rank - 1>, int64_t>>;
  return detail::sugar<R>("compact",
                          {detail::array_operand(flags.node()), detail::array_operand(a.node())});
}
template <class P, class A> auto filter(P p, const Acc<A>& a) {
  detail::need_rows<A>();
  STRATA_FE_CHECK_FN("filter", P, Exp<detail::Elem<A>>);
  auto f = detail::trace<Exp<detail::Elem<A>>>(p).first;
  using R = std::tuple<Vector<detail::Elem<A>>, Array<Dim<A::rank - 1>, int64_t>>;
  return detail::sugar<R>("filter",
                          {detail::fn_operand(std::move(f)), detail::array_operand(a.node())});
}

// --------------------------------------------------------- n-ary zipWith
template <class F, class A, class B, class C, class... More>
auto zipWith(F f, const Acc<A>& a, const Acc<B>& b, const Acc<C>& c, const Acc<More>&... more) {
  static_assert(((A::rank == B::rank && B::rank == C::rank) && ... && (More::rank == A::rank)),
                "strata: zipWith: the arrays must have the same rank");
  auto [lambda, body] = detail::trace<Exp<detail::Elem<A>>, Exp<detail::Elem<B>>,
                                      Exp<detail::Elem<C>>, Exp<detail::Elem<More>>...>(f);
  using E = typename decltype(body)::type;
  return detail::sugar<Array<Dim<A::rank>, E>>(
      "zipwith", {detail::fn_operand(std::move(lambda)), detail::array_operand(a.node()),
                  detail::array_operand(b.node()), detail::array_operand(c.node()),
                  detail::array_operand(more.node())...});
}

// ---------------------------------------------------------------- stencil2
// `(stencil2 (W ...) ba (W ...) bb f a b)`, one window shape for both arrays:
// f(na, nb) reads a's neighbours with na(o...) and b's with nb(o...).
template <int... Ws, class F, class BA, class A, class BB, class B>
auto stencil2(F f, const BA& ba, const Acc<A>& a, const BB& bb, const Acc<B>& b) {
  static_assert(ArrayType<A> && ArrayType<B> && A::rank == B::rank,
                "strata: stencil2: two arrays of the same rank");
  static_assert(int(sizeof...(Ws)) == A::rank,
                "strata: stencil2: give one window size per dimension of the arrays");
  static_assert(((Ws > 0 && Ws % 2 == 1) && ...), "strata: stencil2: window sizes must be odd");
  using WA = Window<detail::Elem<A>, A::rank>;
  using WB = Window<detail::Elem<B>, B::rank>;
  STRATA_FE_CHECK_FN("stencil2", F, WA, WB);
  auto [lambda, body] = detail::trace<WA, WB>(f);
  using R = typename decltype(body)::type;
  auto bound = [](const ac::Boundary& x) {
    return Operand{nullptr, x.constant, nullptr, {}, int(x.kind)};
  };
  std::vector<int64_t> sizes{int64_t(Ws)...};
  return detail::sugar<Array<Dim<A::rank>, R>>(
      "stencil2",
      {Operand{nullptr, nullptr, nullptr, sizes}, bound(detail::boundary_ir<detail::Elem<A>>(ba)),
       Operand{nullptr, nullptr, nullptr, sizes}, bound(detail::boundary_ir<detail::Elem<B>>(bb)),
       detail::fn_operand(std::move(lambda)), detail::array_operand(a.node()),
       detail::array_operand(b.node())});
}

// ------------------------------------------------------------ scalar loop
// `(for n init f)`: f(i, acc) for i = 0 .. n-1, from init.
template <class N, class T, class F> Exp<T> for_(const N& n, const Exp<T>& init, F f) {
  STRATA_FE_CHECK_FN("for_", F, Exp<int64_t>, Exp<T>);
  auto step = detail::trace<Exp<int64_t>, Exp<T>>(f).first;
  return Exp<T>(detail::node(
      ex::Call{"for",
               {detail::scalar_operand(detail::i64(n)), detail::scalar_operand(init.node()),
                detail::fn_operand(std::move(step))}}));
}

} // namespace strata::fe
