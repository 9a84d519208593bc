// Collective operations of the embedded front end (docs/language.md, Collective operations).
//
// Each function takes C++ lambdas over `Exp` handles and array handles, checks
// ranks and element types at compile time (a mismatch is a static_assert with
// a message naming the operation), traces the lambdas, and returns the handle
// of one new IR node. Names follow Accelerate: `map`, `zipWith`, `fold`,
// `fold1`, `foldSeg`, `scanl`, `scanl1`, `scanr`, `scanr1`, `scanl_` (scanl'),
// `generate`, `fill`, `unit`, `use`, `permute`, `backpermute`, `reshape`,
// `replicate`, `slice`, `stencil`, `awhile`, `acond`, `atrace`, `atuple`, `aget`.
#pragma once

#include <array>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/array.h"
#include "frontend/scalar_ops.h"

namespace strata::fe {

namespace detail {
template <class A> using Elem = typename A::elem;
template <class F, class... Ps> using fn_elem = typename ReturnedExp<call_result<F, Ps...>>::elem;

template <class A> Acc<A> acc(AccNode n) {
  return Acc<A>(node(std::move(n)));
}

// An i64-valued operand of a spec or a shape: Exp<int64_t> or a C++ integer.
template <class U> ExpPtr i64(const U& v) {
  static_assert(std::is_integral_v<U> || std::is_same_v<U, Exp<int64_t>>,
                "strata: expected Exp<int64_t> or a C++ integer");
  return operand<int64_t>(v).node();
}

strata::Array host_array(const Type& elem, const Shape& shape, const void* data, size_t bytes);
void check_host_array(const strata::Array& a, const Type& expected, const char* what);
} // namespace detail

// ------------------------------------------------------------------ sources

// `(use LIT)`: host data as an array. A strata::Array is shared, never copied;
// a std::vector or std::span is copied once into an aligned array buffer.
template <class A> Acc<A> use(const strata::Array& a) {
  static_assert(ArrayType<A>, "strata: use<A>: A must be an array type Array<Dim<R>, E>");
  detail::check_host_array(a, type_of<A>(), "use");
  return detail::acc<A>(ac::Use{a});
}
template <ScalarType T, size_t R>
Acc<Array<Dim<int(R)>, T>> use(std::span<const T> values, const std::array<int64_t, R>& shape) {
  static_assert(!std::is_same_v<T, bool>,
                "strata: use: copy bool data into a strata::Array first (std::vector<bool> is "
                "packed)");
  Shape sh(shape.begin(), shape.end());
  return detail::acc<Array<Dim<int(R)>, T>>(
      ac::Use{detail::host_array(type_of<T>(), sh, values.data(), values.size() * sizeof(T))});
}
template <ScalarType T> Acc<Vector<T>> use(std::span<const T> values) {
  return use(values, std::array<int64_t, 1>{int64_t(values.size())});
}
template <ScalarType T> Acc<Vector<T>> use(const std::vector<T>& values) {
  return use(std::span<const T>(values));
}

// `(unit e)`: a rank-0 array.
template <class T> Acc<Scalar<T>> unit(const Exp<T>& e) {
  return detail::acc<Scalar<T>>(ac::Unit{e.node()});
}

// `(generate sh f)`: element i is f(i).
template <class S, class F> auto generate(const Exp<S>& sh, F f) {
  constexpr int R = ix_rank<S>;
  static_assert(R >= 0, "strata: generate: the shape must be an Exp<Ix<R>> (use ix(...))");
  STRATA_FE_CHECK_FN("generate", F, Exp<S>);
  auto [lambda, body] = detail::trace<Exp<S>>(f);
  using E = typename decltype(body)::type;
  return detail::acc<Array<Dim<R>, E>>(ac::Generate{sh.node(), std::move(lambda)});
}

// `(fill sh e)`: every element e.
template <class S, class T> auto fill(const Exp<S>& sh, const Exp<T>& value) {
  constexpr int R = ix_rank<S>;
  static_assert(R >= 0, "strata: fill: the shape must be an Exp<Ix<R>> (use ix(...))");
  return detail::acc<Array<Dim<R>, T>>(ac::Fill{sh.node(), value.node()});
}
template <class S, ScalarType T> auto fill(const Exp<S>& sh, T value) {
  return fill(sh, Exp<T>(value));
}

// ------------------------------------------------------------- element-wise

// `(map f a)`.
template <class F, class A> auto map(F f, const Acc<A>& a) {
  static_assert(ArrayType<A>, "strata: map: the operand must be one array");
  STRATA_FE_CHECK_FN("map", F, Exp<detail::Elem<A>>);
  auto [lambda, body] = detail::trace<Exp<detail::Elem<A>>>(f);
  using E = typename decltype(body)::type;
  return detail::acc<Array<Dim<A::rank>, E>>(ac::Map{std::move(lambda), a.node()});
}

// `(zipwith f a b)`: the shape is the intersection of the two shapes.
template <class F, class A, class B> auto zipWith(F f, const Acc<A>& a, const Acc<B>& b) {
  static_assert(ArrayType<A> && ArrayType<B>, "strata: zipWith: the operands must be arrays");
  static_assert(A::rank == B::rank, "strata: zipWith: the two arrays must have the same rank");
  STRATA_FE_CHECK_FN("zipWith", F, Exp<detail::Elem<A>>, Exp<detail::Elem<B>>);
  auto [lambda, body] = detail::trace<Exp<detail::Elem<A>>, Exp<detail::Elem<B>>>(f);
  using E = typename decltype(body)::type;
  return detail::acc<Array<Dim<A::rank>, E>>(ac::ZipWith{std::move(lambda), a.node(), b.node()});
}

// ---------------------------------------------------------------- reductions
namespace detail {
// The combining function E -> E -> E of a reduction or scan.
template <class E, class F> Lambda combiner(F& f) {
  static_assert(std::is_same_v<fn_elem<F, Exp<E>, Exp<E>>, E>,
                "strata: the combining function must return the array's element type");
  return trace<Exp<E>, Exp<E>>(f).first;
}
template <class A> constexpr void need_rank1() {
  static_assert(ArrayType<A>, "strata: reductions and scans take one array");
}
} // namespace detail

// `(fold f z a)`: reduces the innermost dimension; the seed is used once per row.
template <class F, class Z, class A> auto fold(F f, const Z& seed, const Acc<A>& a) {
  detail::need_rank1<A>();
  static_assert(A::rank >= 1, "strata: fold: the array must have rank at least 1");
  using E = detail::Elem<A>;
  STRATA_FE_CHECK_FN("fold", F, Exp<E>, Exp<E>);
  static_assert(std::is_same_v<Z, Exp<E>> || detail::LiteralFor<E, Z>,
                "strata: fold: the seed must have the array's element type");
  return detail::acc<Array<Dim<A::rank - 1>, E>>(
      ac::Fold{detail::combiner<E>(f), detail::operand<E>(seed).node(), a.node()});
}

// `(fold1 f a)`: as fold without a seed; empty rows are an error.
template <class F, class A> auto fold1(F f, const Acc<A>& a) {
  detail::need_rank1<A>();
  static_assert(A::rank >= 1, "strata: fold1: the array must have rank at least 1");
  using E = detail::Elem<A>;
  STRATA_FE_CHECK_FN("fold1", F, Exp<E>, Exp<E>);
  return detail::acc<Array<Dim<A::rank - 1>, E>>(
      ac::Fold{detail::combiner<E>(f), nullptr, a.node()});
}

// `(foldseg f z a segs)`: segment lengths along the innermost dimension.
template <class F, class Z, class A>
auto foldSeg(F f, const Z& seed, const Acc<A>& a, const Acc<Vector<int64_t>>& segs) {
  detail::need_rank1<A>();
  static_assert(A::rank >= 1, "strata: foldSeg: the array must have rank at least 1");
  using E = detail::Elem<A>;
  STRATA_FE_CHECK_FN("foldSeg", F, Exp<E>, Exp<E>);
  static_assert(std::is_same_v<Z, Exp<E>> || detail::LiteralFor<E, Z>,
                "strata: foldSeg: the seed must have the array's element type");
  return detail::acc<A>(
      ac::FoldSeg{detail::combiner<E>(f), detail::operand<E>(seed).node(), a.node(), segs.node()});
}

namespace detail {
template <class F, class Z, class A>
AccNode scan_node(ac::ScanKind kind, F& f, const Z* seed, const Acc<A>& a) {
  need_rank1<A>();
  static_assert(A::rank >= 1, "strata: scans need an array of rank at least 1");
  using E = Elem<A>;
  STRATA_FE_CHECK_FN("scan", F, Exp<E>, Exp<E>);
  ExpPtr z;
  if constexpr (!std::is_same_v<Z, void>) {
    static_assert(std::is_same_v<Z, Exp<E>> || LiteralFor<E, Z>,
                  "strata: scan: the seed must have the array's element type");
    z = operand<E>(*seed).node();
  }
  return ac::Scan{kind, combiner<E>(f), z, a.node()};
}
} // namespace detail

template <class F, class Z, class A> Acc<A> scanl(F f, const Z& seed, const Acc<A>& a) {
  return detail::acc<A>(detail::scan_node(ac::ScanKind::Scanl, f, &seed, a));
}
template <class F, class A> Acc<A> scanl1(F f, const Acc<A>& a) {
  return detail::acc<A>(detail::scan_node<F, void>(ac::ScanKind::Scanl1, f, nullptr, a));
}
template <class F, class Z, class A> Acc<A> scanr(F f, const Z& seed, const Acc<A>& a) {
  return detail::acc<A>(detail::scan_node(ac::ScanKind::Scanr, f, &seed, a));
}
template <class F, class A> Acc<A> scanr1(F f, const Acc<A>& a) {
  return detail::acc<A>(detail::scan_node<F, void>(ac::ScanKind::Scanr1, f, nullptr, a));
}
// `(scanl' f z a)`: the exclusive scan and the per-row totals.
template <class F, class Z, class A> auto scanl_(F f, const Z& seed, const Acc<A>& a) {
  using R = std::tuple<A, Array<Dim<A::rank - 1>, detail::Elem<A>>>;
  return detail::acc<R>(detail::scan_node(ac::ScanKind::ScanlPrime, f, &seed, a));
}

// ------------------------------------------------------------- permutations

// `(permute comb defs target src)`: combines src[i] into defs at target(i)
// unless the target is ignore<R>().
template <class C, class D, class T, class S>
Acc<D> permute(C comb, const Acc<D>& defaults, T target, const Acc<S>& source) {
  static_assert(ArrayType<D> && ArrayType<S>, "strata: permute: operands must be arrays");
  using E = detail::Elem<D>;
  static_assert(std::is_same_v<detail::Elem<S>, E>,
                "strata: permute: the source and default arrays must have the same element type");
  STRATA_FE_CHECK_FN("permute combination", C, Exp<E>, Exp<E>);
  STRATA_FE_CHECK_FN("permute target", T, Exp<Ix<S::rank>>);
  static_assert(std::is_same_v<detail::call_result<T, Exp<Ix<S::rank>>>, Exp<Ix<D::rank>>>,
                "strata: permute: the target function must return an index of the default "
                "array's rank, Exp<Ix<R>>");
  auto t = detail::trace<Exp<Ix<S::rank>>>(target).first;
  return detail::acc<D>(
      ac::Permute{detail::combiner<E>(comb), defaults.node(), std::move(t), source.node()});
}

// `(backpermute sh f a)`: element i of the result is a[f(i)].
template <class Sh, class F, class A> auto backpermute(const Exp<Sh>& sh, F f, const Acc<A>& a) {
  constexpr int R = ix_rank<Sh>;
  static_assert(R >= 0, "strata: backpermute: the shape must be an Exp<Ix<R>>");
  static_assert(ArrayType<A>, "strata: backpermute: the operand must be one array");
  STRATA_FE_CHECK_FN("backpermute", F, Exp<Sh>);
  static_assert(std::is_same_v<detail::call_result<F, Exp<Sh>>, Exp<Ix<A::rank>>>,
                "strata: backpermute: the function must return an index of the source array's "
                "rank, Exp<Ix<R>>");
  auto l = detail::trace<Exp<Sh>>(f).first;
  return detail::acc<Array<Dim<R>, detail::Elem<A>>>(
      ac::Backpermute{sh.node(), std::move(l), a.node()});
}

// `(reshape sh a)`: the same elements in a new shape of the same size.
template <class Sh, class A> auto reshape(const Exp<Sh>& sh, const Acc<A>& a) {
  constexpr int R = ix_rank<Sh>;
  static_assert(R >= 0, "strata: reshape: the shape must be an Exp<Ix<R>>");
  static_assert(ArrayType<A>, "strata: reshape: the operand must be one array");
  return detail::acc<Array<Dim<R>, detail::Elem<A>>>(ac::Reshape{sh.node(), a.node()});
}

// ------------------------------------------------------- replicate and slice

// `All` in a spec keeps a dimension; an integer (or Exp<int64_t>) adds one
// (replicate) or fixes an index (slice). Specs list dimensions outermost first.
struct AllT {};
inline constexpr AllT All{};

template <class... Items> struct Spec {
  static constexpr int size = int(sizeof...(Items));
  static constexpr int alls = (int(std::is_same_v<Items, AllT>) + ... + 0);
  std::tuple<Items...> items;
  std::vector<ac::SpecItem> ir() const {
    std::vector<ac::SpecItem> out;
    std::apply(
        [&](const auto&... item) {
          (out.push_back(ac::SpecItem{[&]() -> ExpPtr {
            if constexpr (std::is_same_v<std::decay_t<decltype(item)>, AllT>)
              return nullptr;
            else
              return detail::i64(item);
          }()}),
           ...);
        },
        items);
    return out;
  }
};
template <class... Items> Spec<Items...> spec(const Items&... items) {
  return Spec<Items...>{std::tuple<Items...>(items...)};
}

// `(replicate (spec ...) a)`: one `All` per source dimension.
template <class... Items, class A> auto replicate(const Spec<Items...>& s, const Acc<A>& a) {
  static_assert(ArrayType<A>, "strata: replicate: the operand must be one array");
  static_assert(Spec<Items...>::alls == A::rank,
                "strata: replicate: the spec must have one All per dimension of the array");
  return detail::acc<Array<Dim<Spec<Items...>::size>, detail::Elem<A>>>(
      ac::Replicate{s.ir(), a.node()});
}

// `(slice a (spec ...))`: one entry per source dimension.
template <class A, class... Items> auto slice(const Acc<A>& a, const Spec<Items...>& s) {
  static_assert(ArrayType<A>, "strata: slice: the operand must be one array");
  static_assert(Spec<Items...>::size == A::rank,
                "strata: slice: the spec must have one entry per dimension of the array");
  return detail::acc<Array<Dim<Spec<Items...>::alls>, detail::Elem<A>>>(
      ac::Slice{a.node(), s.ir()});
}

// ------------------------------------------------------------------ stencil

// Boundaries of a stencil: boundary::clamp, mirror, wrap, or constant(e).
namespace boundary {
template <class E> struct Constant { Exp<E> value; };
struct Kind {
  ac::BoundaryKind kind;
};
inline constexpr Kind clamp{ac::BoundaryKind::Clamp};
inline constexpr Kind mirror{ac::BoundaryKind::Mirror};
inline constexpr Kind wrap{ac::BoundaryKind::Wrap};
template <class T> auto constant(const T& v) {
  return Constant<typename decltype(lift(v))::type>{lift(v)};
}
} // namespace boundary

namespace detail {
template <class E> ac::Boundary boundary_ir(const boundary::Kind& b) {
  return {b.kind, nullptr};
}
template <class E, class C> ac::Boundary boundary_ir(const boundary::Constant<C>& b) {
  static_assert(std::is_same_v<E, C>,
                "strata: stencil: the boundary constant must have the array's element type");
  return {ac::BoundaryKind::Constant, b.value.node()};
}
} // namespace detail

// `(stencil (W ...) boundary f a)`: f reads neighbours with nb(o1, ..., oR);
// window sizes are odd and listed outermost first: stencil<3, 3>(f, clamp, img).
template <int... Ws, class F, class B, class A> auto stencil(F f, const B& bnd, const Acc<A>& a) {
  static_assert(ArrayType<A>, "strata: stencil: the operand must be one array");
  static_assert(int(sizeof...(Ws)) == A::rank,
                "strata: stencil: give one window size per dimension of the array");
  static_assert(((Ws > 0 && Ws % 2 == 1) && ...), "strata: stencil: window sizes must be odd");
  using E = detail::Elem<A>;
  using W = Window<E, A::rank>;
  STRATA_FE_CHECK_FN("stencil", F, W);
  auto [lambda, body] = detail::trace<W>(f);
  using R = typename decltype(body)::type;
  return detail::acc<Array<Dim<A::rank>, R>>(
      ac::Stencil{{int64_t(Ws)...}, detail::boundary_ir<E>(bnd), std::move(lambda), a.node()});
}

// -------------------------------------------------------- control and tuples

// `(awhile cond body init)`: repeat body while cond gives true.
template <class C, class F, class A> Acc<A> awhile(C cond_fn, F body_fn, const Acc<A>& init) {
  static_assert(std::is_invocable_v<C&, Acc<A>> && std::is_invocable_v<F&, Acc<A>>,
                "strata: awhile: the functions must take the state, an Acc<A>");
  static_assert(std::is_same_v<detail::call_result<C, Acc<A>>, Acc<Scalar<bool>>>,
                "strata: awhile: the condition must return Acc<Scalar<bool>>");
  static_assert(std::is_same_v<detail::call_result<F, Acc<A>>, Acc<A>>,
                "strata: awhile: the body must return the state type");
  auto alambda = [&](auto& fn) {
    std::string name = detail::fresh_name();
    Acc<A> param(detail::node(ac::Var{name}));
    AccPtr body = fn(param).node();
    return ALambda{{detail::param(name, type_of<A>())}, body, SrcLoc{}};
  };
  ALambda c = alambda(cond_fn);
  ALambda b = alambda(body_fn);
  return detail::acc<A>(ac::Awhile{std::move(c), std::move(b), init.node()});
}

// `(acond c a b)`: a scalar condition chooses an array.
template <class A> Acc<A> acond(const Exp<bool>& c, const Acc<A>& t, const Acc<A>& e) {
  return detail::acc<A>(ac::ACond{c.node(), t.node(), e.node()});
}

// `(atrace "label" a)`.
template <class A> Acc<A> atrace(const std::string& label, const Acc<A>& a) {
  return detail::acc<A>(ac::ATrace{label, a.node()});
}

// `(atuple a ...)` and `(aproj K t)`.
template <class... As> Acc<std::tuple<As...>> atuple(const Acc<As>&... arrays) {
  static_assert((ArrayType<As> && ...), "strata: atuple: the components must be arrays");
  return detail::acc<std::tuple<As...>>(ac::ATuple{{arrays.node()...}});
}
template <size_t K, class... As> auto aget(const Acc<std::tuple<As...>>& t) {
  static_assert(K < sizeof...(As), "strata: aget<K>: K is out of range");
  using R = std::tuple_element_t<K, std::tuple<As...>>;
  return detail::acc<R>(ac::AProj{int(K), t.node()});
}

} // namespace strata::fe
