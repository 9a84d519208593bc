// Compile-time types of the embedded C++ front end.
//
// C++ types stand for Strata types so that the C++ compiler checks ranks and
// element types: an element type is one of the eleven C++ scalar types of
// core/scalar.h or a std::tuple of element types; `Ix<R>` is a tuple of R
// int64_t (exactly the language's `(ix R)`); an array type is `Array<Dim<R>, E>`
// and a result of several arrays is a std::tuple of array types. The handles
// `Exp<T>` (one scalar value) and `Acc<A>` (arrays) of handles.h are indexed by
// these types. Each type maps to its run-time `strata::Type` with `type_of`.
#pragma once

#include <cstdint>
#include <tuple>
#include <type_traits>

#include "core/types.h"

namespace strata::fe {

namespace detail {
template <class> inline constexpr bool always_false = false;

template <class T> struct ElemTraits { static constexpr bool value = false; };
#define STRATA_FE_SCALAR(T)                                                                        \
  template <> struct ElemTraits<T> {                                                               \
    static constexpr bool value = true;                                                            \
    static Type type() { return Type::scalar(kind_of<T>); }                                        \
  };
STRATA_FE_SCALAR(bool)
STRATA_FE_SCALAR(int8_t)
STRATA_FE_SCALAR(int16_t)
STRATA_FE_SCALAR(int32_t)
STRATA_FE_SCALAR(int64_t)
STRATA_FE_SCALAR(uint8_t)
STRATA_FE_SCALAR(uint16_t)
STRATA_FE_SCALAR(uint32_t)
STRATA_FE_SCALAR(uint64_t)
STRATA_FE_SCALAR(float)
STRATA_FE_SCALAR(double)
#undef STRATA_FE_SCALAR
template <class... Ts> struct ElemTraits<std::tuple<Ts...>> {
  static constexpr bool value = (ElemTraits<Ts>::value && ...);
  static Type type() { return Type::tuple({ElemTraits<Ts>::type()...}); }
};
} // namespace detail

// One of bool, int8_t ... uint64_t, float, double.
template <class T>
concept ScalarType = detail::ElemTraits<T>::value && std::is_arithmetic_v<T>;
// A scalar type or a std::tuple of element types (nesting allowed).
template <class T>
concept ElemType = detail::ElemTraits<T>::value;

template <class T>
concept IntegralType = ScalarType<T> && std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <class T>
concept FloatType = ScalarType<T> && std::is_floating_point_v<T>;
template <class T>
concept NumericType = ScalarType<T> && !std::is_same_v<T, bool>;

namespace detail {
template <int R, class... Ts> struct IxOf {
  using type = typename IxOf<R - 1, int64_t, Ts...>::type;
};
template <class... Ts> struct IxOf<0, Ts...> { using type = std::tuple<Ts...>; };
template <class T> struct IxRank { static constexpr int value = -1; };
template <class... Ts> struct IxRank<std::tuple<Ts...>> {
  static constexpr int value = (std::is_same_v<Ts, int64_t> && ...) ? int(sizeof...(Ts)) : -1;
};
} // namespace detail

// The index / shape type of rank R: a std::tuple of R int64_t, as `(ix R)`.
template <int R> using Ix = typename detail::IxOf<R>::type;
// The rank of an index type, or -1 when T is not one.
template <class T> inline constexpr int ix_rank = detail::IxRank<T>::value;

// Shapes of arrays, by rank (Accelerate's DIM0, DIM1, ...).
template <int R> struct Dim {
  static_assert(R >= 0, "strata: an array rank cannot be negative");
  static constexpr int rank = R;
};
using DIM0 = Dim<0>;
using DIM1 = Dim<1>;
using DIM2 = Dim<2>;
using DIM3 = Dim<3>;
using DIM4 = Dim<4>;

namespace detail {
template <class T> struct IsDim : std::false_type {};
template <int R> struct IsDim<Dim<R>> : std::true_type {};
} // namespace detail

// The type of a regular array of shape Sh (a Dim<R>) and element type E.
template <class Sh, class E> struct Array {
  static_assert(detail::IsDim<Sh>::value, "strata: the shape of Array<Sh, E> must be Dim<R>");
  static_assert(ElemType<E>,
                "strata: the element type of Array<Sh, E> must be a scalar type or a std::tuple "
                "of them; arrays cannot be elements of arrays (no nested data parallelism)");
  static constexpr int rank = Sh::rank;
  using elem = E;
};
template <class E> using Scalar = Array<DIM0, E>;
template <class E> using Vector = Array<DIM1, E>;
template <class E> using Matrix = Array<DIM2, E>;

namespace detail {
template <class A> struct ArraysTraits { static constexpr bool is_array = false, value = false; };
template <class Sh, class E> struct ArraysTraits<Array<Sh, E>> {
  static constexpr bool is_array = true, value = true;
  static Type type() { return Type::array(ElemTraits<E>::type(), Sh::rank); }
};
template <class... As> struct ArraysTraits<std::tuple<As...>> {
  static constexpr bool is_array = false;
  static constexpr bool value = sizeof...(As) > 0 && (ArraysTraits<As>::is_array && ...);
  static Type type() { return Type::tuple({ArraysTraits<As>::type()...}); }
};
} // namespace detail

// Array<Sh, E>.
template <class A>
concept ArrayType = detail::ArraysTraits<A>::is_array;
// Array<Sh, E> or a non-empty std::tuple of them (the result of `atuple`, `scanl_`).
template <class A>
concept ArraysType = detail::ArraysTraits<A>::value;

// The run-time type of an element type or of an array type.
template <class T> Type type_of() {
  if constexpr (ElemType<T>)
    return detail::ElemTraits<T>::type();
  else
    return detail::ArraysTraits<T>::type();
}

} // namespace strata::fe
