// The pinned scalar semantics of docs/language.md, Pinned semantics, one small template per
// primitive and conversion.
//
// These are the definitions: the interpreter calls them through a dynamic
// dispatch, and native engines are tested against them. They are free of
// undefined behaviour for every input (integer arithmetic wraps through
// unsigned 64-bit arithmetic; C++20 defines the narrowing conversions as
// modular). Operations that can fail (integer division by zero) are guarded by
// the caller, which knows the source position to report.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace strata::sem {

template <class T> constexpr bool is_int_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <class T> using Unsigned = std::make_unsigned_t<T>;

// ------------------------------------------------------------ arithmetic
template <class T> T add(T a, T b) {
  if constexpr (is_int_v<T>)
    return T(uint64_t(a) + uint64_t(b));
  else
    return a + b;
}
template <class T> T sub(T a, T b) {
  if constexpr (is_int_v<T>)
    return T(uint64_t(a) - uint64_t(b));
  else
    return a - b;
}
template <class T> T mul(T a, T b) {
  if constexpr (is_int_v<T>)
    return T(uint64_t(a) * uint64_t(b));
  else
    return a * b;
}
template <class T> T neg(T a) {
  if constexpr (is_int_v<T>)
    return T(uint64_t(0) - uint64_t(a));
  else
    return -a;
}
// abs(MIN) wraps to MIN, as two's complement negation does.
template <class T> T abs(T a) {
  if constexpr (is_int_v<T>) {
    if constexpr (std::is_signed_v<T>)
      return a < 0 ? neg(a) : a;
    else
      return a;
  } else {
    return std::fabs(a);
  }
}
// Haskell's signum: -1, 0 or 1; for floats, -0.0 and NaN map to themselves.
template <class T> T signum(T a) {
  if constexpr (std::is_floating_point_v<T>) {
    if (a > 0) return T(1);
    if (a < 0) return T(-1);
    return a;
  } else {
    return a > 0 ? T(1) : (a < 0 ? T(-1) : T(0));
  }
}
// fmin/fmax on floats: a NaN operand loses to a number. On ties (including
// -0.0 vs +0.0) the first operand is returned, so every engine agrees bitwise.
template <class T> T min(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
  }
  return b < a ? b : a;
}
template <class T> T max(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
  }
  return b > a ? b : a;
}

// Integer division, divisor known to be non-zero. MIN / -1 wraps to MIN, remainder 0.
template <class T> T quot(T a, T b) {
  if constexpr (std::is_signed_v<T>)
    if (b == T(-1)) return neg(a);
  return T(a / b);
}
template <class T> T rem(T a, T b) {
  if constexpr (std::is_signed_v<T>)
    if (b == T(-1)) return T(0);
  return T(a % b);
}
// Floor division: the quotient rounds toward negative infinity, and mod takes the sign of the
// divisor.
template <class T> T idiv(T a, T b) {
  T q = quot(a, b);
  if constexpr (std::is_signed_v<T>)
    if (rem(a, b) != 0 && ((a < 0) != (b < 0))) q = sub(q, T(1));
  return q;
}
template <class T> T mod(T a, T b) {
  T r = rem(a, b);
  if constexpr (std::is_signed_v<T>)
    if (r != 0 && ((r < 0) != (b < 0))) r = add(r, b);
  return r;
}

// ------------------------------------------------------------ bitwise
// Shift amounts are taken modulo the bit width; `shr` is arithmetic for signed types.
template <class T> unsigned shift_amount(T s) {
  return unsigned(uint64_t(s) & uint64_t(sizeof(T) * 8 - 1));
}
template <class T> T shl(T a, T s) {
  return T(Unsigned<T>(Unsigned<T>(a) << shift_amount(s)));
}
template <class T> T shr(T a, T s) {
  return T(a >> shift_amount(s));
}
template <class T> T popcount(T a) {
  return T(std::popcount(Unsigned<T>(a)));
}
template <class T> T clz(T a) {
  return T(std::countl_zero(Unsigned<T>(a)));
}
template <class T> T ctz(T a) {
  return T(std::countr_zero(Unsigned<T>(a)));
}

// ------------------------------------------------------------ floating
// Half away from zero, as C's round().
template <class T> T round(T a) {
  return std::round(a);
}

// The one NaN a program computes (docs/language.md, "NaN"): positive and
// quiet, no payload (f32 0x7fc00000, f64 0x7ff8000000000000). Hardware
// and compilers disagree on the sign of a new NaN (x86 makes 0xffc00000,
// constant folding 0x7fc00000) and pass payloads on, so every engine stores
// canonical(x) of what it computes. Identity on every other type.
template <class T> T canonical(T x) {
  if constexpr (std::is_floating_point_v<T>)
    return x != x ? std::numeric_limits<T>::quiet_NaN() : x;
  else
    return x;
}

// ------------------------------------------------------------ conversions
// cast<To>(from): int->int wraps; int->float rounds to nearest, once; float->int
// truncates toward zero and saturates, NaN -> 0; to bool is `/= 0` (NaN -> true);
// bool -> number is 0 or 1.
template <class To, class From> To cast(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (is_int_v<To> && std::is_floating_point_v<From>) {
    if (std::isnan(v)) return To(0);
    From t = std::trunc(v);
    // Compare in the float type against the target's range; the bounds are
    // powers of two (or zero) and therefore exact in every float type.
    constexpr From lo = From(std::numeric_limits<To>::min());
    constexpr From hi_exclusive = From(2) * From(std::numeric_limits<To>::max() / 2 + 1);
    if (t < lo) return std::numeric_limits<To>::min();
    if (t >= hi_exclusive) return std::numeric_limits<To>::max();
    return To(t);
  } else {
    return To(v);
  }
}

} // namespace strata::sem
