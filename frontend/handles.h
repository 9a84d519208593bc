// Typed handles of the embedded C++ front end: `Exp<T>` and `Acc<A>`.
//
// A handle is a typed pointer to a node of the IR of core/ir.h: building
// `map(f, xs)` makes one `ac::Map` node whose operand is the node of `xs`.
// C++ variables therefore share nodes: `auto y = map(f, x); zipWith(g, y, y)`
// makes a graph in which y's node has two parents. Sharing recovery
// (sharing.h) later turns that graph into a tree with `alet`/`let`, so y is
// computed once. C++ lambdas given to collective operations are traced: called
// once with parameter handles, their result is the body of an IR lambda.
//
// Every node made here is also kept by a per-thread registry so that releasing
// a graph ten thousand nodes deep never recurses through ten thousand
// shared_ptr destructors (see detail::keep in nodes.cpp).
#pragma once

#include <string>
#include <type_traits>
#include <utility>

#include "core/ir.h"
#include "frontend/types.h"

namespace strata::fe {

namespace detail {
// Registers a new node (see the file comment) and returns it.
ExpPtr node(ExpNode n);
AccPtr node(AccNode n);
// A fresh variable name, unique in this process ("_x17"); sharing recovery
// renames variables canonically, so these names never reach printed programs.
std::string fresh_name();
} // namespace detail

template <class T> class Exp;
template <class A> class Acc;

// A scalar expression computing one value of element type T.
template <class T> class Exp {
  static_assert(ElemType<T>,
                "strata: Exp<T> needs an element type: bool, a fixed-width integer, float, double "
                "or a std::tuple of them; an array cannot be a scalar value (no nested data "
                "parallelism)");

public:
  using type = T;
  // A literal of a scalar type: `Exp<float> c = 2.5f;`.
  Exp(T value) requires ScalarType<T>
      : node_(detail::node(ex::Const{strata::Scalar::make<T>(value)})) {}
  explicit Exp(ExpPtr node) : node_(std::move(node)) {}
  const ExpPtr& node() const { return node_; }

private:
  ExpPtr node_;
};

// Arrays: Acc<Array<Sh, E>> is one array, Acc<std::tuple<Array<...>, ...>> several.
template <class A> class Acc {
  // Completing A runs the checks of Array<Sh, E> (no arrays as elements).
  static_assert(sizeof(A) > 0);
  static_assert(ArraysType<A>, "strata: Acc<A> needs an array type Array<Dim<R>, E> (or the "
                               "aliases Scalar<E>, Vector<E>, Matrix<E>) or a std::tuple of them");

public:
  using type = A;
  explicit Acc(AccPtr node) : node_(std::move(node)) {}
  const AccPtr& node() const { return node_; }

  // Reads the element at an index: `(! A ix)`. Usable inside the functions of
  // collective operations; the array is bound with `alet` by sharing recovery.
  template <class I, class B = A> Exp<typename B::elem> operator[](const Exp<I>& ix) const {
    static_assert(ArrayType<B>, "strata: [] reads an element of one array, not of a tuple");
    static_assert(ix_rank<I> == B::rank,
                  "strata: the index given to [] must have the array's rank: Exp<Ix<R>>");
    return Exp<typename B::elem>(detail::node(ex::Read{node_, ix.node()}));
  }

private:
  AccPtr node_;
};

// The neighbourhood of one element, the parameter of a stencil function:
// `nb(-1, 0)` reads the neighbour one row up (offsets outermost first).
template <class E, int R> class Window {
public:
  using elem_type = E;
  static constexpr int rank = R;
  explicit Window(std::string name) : name_(std::move(name)) {}
  template <class... Os> Exp<E> operator()(Os... offsets) const {
    static_assert(sizeof...(Os) == size_t(R),
                  "strata: a stencil window of rank R is read with exactly R offsets");
    static_assert((std::is_integral_v<Os> && ...), "strata: window offsets are integers");
    return Exp<E>(detail::node(ex::At{name_, {int64_t(offsets)...}}));
  }
  const std::string& name() const { return name_; }

private:
  std::string name_;
};

// ----------------------------------------------------------- trait helpers
namespace detail {
template <class T> struct IsExp : std::false_type {};
template <class T> struct IsExp<Exp<T>> : std::true_type { using elem = T; };
template <class T> struct IsAcc : std::false_type {};
template <class A> struct IsAcc<Acc<A>> : std::true_type { using arrays = A; };
template <class T> struct IsWindow : std::false_type {};
template <class E, int R> struct IsWindow<Window<E, R>> : std::true_type {};

// Whether the literal type U may stand for a value of scalar type T: the same
// type, an integer literal for any number type, or a floating literal for a
// floating type (never a float silently truncated to an integer).
template <class T, class U>
concept LiteralFor = ScalarType<T> && std::is_arithmetic_v<U> &&
    (std::is_same_v<T, U> ||
     (std::is_integral_v<U> && !std::is_same_v<U, bool> && !std::is_same_v<T, bool>) ||
     (std::is_floating_point_v<U> && std::is_floating_point_v<T>));

// What a traced function returned, as an expression: Exp<T> stays, a C++
// scalar becomes a literal.
template <class R> struct ReturnedExp { static constexpr bool value = false; };
template <class T> struct ReturnedExp<Exp<T>> {
  static constexpr bool value = true;
  using elem = T;
  static Exp<T> get(Exp<T> e) { return e; }
};
#define STRATA_FE_RETURNED_LITERAL(T)                                                              \
  template <> struct ReturnedExp<T> {                                                              \
    static constexpr bool value = true;                                                            \
    using elem = T;                                                                                \
    static Exp<T> get(T v) { return Exp<T>(v); }                                                   \
  };
STRATA_FE_RETURNED_LITERAL(bool)
STRATA_FE_RETURNED_LITERAL(int32_t)
STRATA_FE_RETURNED_LITERAL(int64_t)
STRATA_FE_RETURNED_LITERAL(uint32_t)
STRATA_FE_RETURNED_LITERAL(uint64_t)
STRATA_FE_RETURNED_LITERAL(float)
STRATA_FE_RETURNED_LITERAL(double)
#undef STRATA_FE_RETURNED_LITERAL

template <class F, class... Args>
using call_result = std::decay_t<std::invoke_result_t<F&, const Args&...>>;

inline Param param(const std::string& name, Type type) {
  return Param{name, std::move(type), SrcLoc{}};
}

// Traces a scalar function of the given parameter handle types into an IR
// lambda. Returns the lambda and the result handle.
template <class... Ps, class F> auto trace(F& f) {
  Lambda lambda;
  auto make_arg = [&]<class P>(std::type_identity<P>) {
    std::string name = fresh_name();
    if constexpr (IsWindow<P>::value) {
      lambda.params.push_back(param(name, Type::window(type_of<typename P::elem_type>(), P::rank)));
      return P(name);
    } else {
      lambda.params.push_back(param(name, type_of<typename IsExp<P>::elem>()));
      return P(node(ex::Var{name}));
    }
  };
  // Parameters are made left to right (braced initialisation fixes the order).
  std::tuple<Ps...> args{make_arg(std::type_identity<Ps>{})...};
  using R = std::decay_t<decltype(std::apply(f, args))>;
  auto result = ReturnedExp<R>::get(std::apply(f, args));
  lambda.body = result.node();
  return std::pair<Lambda, decltype(result)>(std::move(lambda), std::move(result));
}
} // namespace detail

// Checks, with readable messages, that F can be traced as a scalar function
// of the handle types Ps... (used by every operation that takes a function).
#define STRATA_FE_CHECK_FN(WHAT, F, ...)                                                           \
  static_assert(std::is_invocable_v<F&, __VA_ARGS__>,                                              \
                "strata: " WHAT ": the function cannot be called with the element types of its "   \
                "operands (check the Exp<T> parameter types of the lambda)");                      \
  static_assert(                                                                                   \
      !::strata::fe::detail::IsAcc<std::decay_t<std::invoke_result_t<F&, __VA_ARGS__>>>::value,    \
      "strata: " WHAT ": the function returns an array (Acc); a collective operation "             \
      "cannot run inside a scalar function (no nested data parallelism)");                         \
  static_assert(::strata::fe::detail::ReturnedExp<                                                 \
                    std::decay_t<std::invoke_result_t<F&, __VA_ARGS__>>>::value,                   \
                "strata: " WHAT ": the function must return a scalar expression Exp<T>")

} // namespace strata::fe
