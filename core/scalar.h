// Scalar element kinds and a tagged scalar value.
//
// Every array element is built from these eleven scalar kinds. `Scalar` is the
// value form used by literals and by the interpreter; `dispatch_scalar` calls a
// generic lambda with a value of the C++ type that matches a kind, so each
// operation is written once as a template instead of eleven times.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace strata {

enum class ScalarKind : uint8_t { Bool, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64 };

constexpr int kNumScalarKinds = 11;

std::string_view scalar_name(ScalarKind k);
std::optional<ScalarKind> scalar_from_name(std::string_view name);
size_t scalar_size(ScalarKind k);

inline bool is_float(ScalarKind k) {
  return k == ScalarKind::F32 || k == ScalarKind::F64;
}
inline bool is_integral(ScalarKind k) {
  return k != ScalarKind::Bool && !is_float(k);
}
inline bool is_numeric(ScalarKind k) {
  return k != ScalarKind::Bool;
}
bool is_signed(ScalarKind k);
int bit_width(ScalarKind k);

template <class T> struct KindOf;
template <> struct KindOf<bool> { static constexpr ScalarKind value = ScalarKind::Bool; };
template <> struct KindOf<int8_t> { static constexpr ScalarKind value = ScalarKind::I8; };
template <> struct KindOf<int16_t> { static constexpr ScalarKind value = ScalarKind::I16; };
template <> struct KindOf<int32_t> { static constexpr ScalarKind value = ScalarKind::I32; };
template <> struct KindOf<int64_t> { static constexpr ScalarKind value = ScalarKind::I64; };
template <> struct KindOf<uint8_t> { static constexpr ScalarKind value = ScalarKind::U8; };
template <> struct KindOf<uint16_t> { static constexpr ScalarKind value = ScalarKind::U16; };
template <> struct KindOf<uint32_t> { static constexpr ScalarKind value = ScalarKind::U32; };
template <> struct KindOf<uint64_t> { static constexpr ScalarKind value = ScalarKind::U64; };
template <> struct KindOf<float> { static constexpr ScalarKind value = ScalarKind::F32; };
template <> struct KindOf<double> { static constexpr ScalarKind value = ScalarKind::F64; };
template <class T> constexpr ScalarKind kind_of = KindOf<T>::value;

// Calls f(T{}) with the C++ type T of kind k; returns what f returns.
template <class F> decltype(auto) dispatch_kind(ScalarKind k, F&& f) {
  switch (k) {
  case ScalarKind::Bool: return f(bool{});
  case ScalarKind::I8: return f(int8_t{});
  case ScalarKind::I16: return f(int16_t{});
  case ScalarKind::I32: return f(int32_t{});
  case ScalarKind::I64: return f(int64_t{});
  case ScalarKind::U8: return f(uint8_t{});
  case ScalarKind::U16: return f(uint16_t{});
  case ScalarKind::U32: return f(uint32_t{});
  case ScalarKind::U64: return f(uint64_t{});
  case ScalarKind::F32: return f(float{});
  case ScalarKind::F64: return f(double{});
  }
  __builtin_unreachable();
}

// A scalar value tagged with its kind. Storage is a 64-bit slot holding the
// value's bytes; `get<T>()` and `make<T>()` are the typed accessors.
class Scalar {
public:
  Scalar() = default;
  template <class T> static Scalar make(T v) {
    static_assert(sizeof(T) <= sizeof(uint64_t));
    Scalar s;
    s.kind_ = kind_of<T>;
    std::memcpy(&s.bits_, &v, sizeof(T));
    return s;
  }
  template <class T> T get() const {
    T v;
    std::memcpy(&v, &bits_, sizeof(T));
    return v;
  }
  ScalarKind kind() const { return kind_; }
  // Calls f(value) with the value as its C++ type.
  template <class F> decltype(auto) visit(F&& f) const {
    return dispatch_kind(kind_, [&](auto tag) { return f(get<decltype(tag)>()); });
  }
  // Bitwise identity: NaN equals the same NaN, -0 differs from +0.
  bool identical(const Scalar& o) const { return kind_ == o.kind_ && bits_ == o.bits_; }
  // A float NaN (any payload).
  bool is_nan() const {
    if (kind_ == ScalarKind::F32) return get<float>() != get<float>();
    return kind_ == ScalarKind::F64 && get<double>() != get<double>();
  }
  // Reads/writes the value's bytes (scalar_size(kind) of them).
  const void* data() const { return &bits_; }
  static Scalar from_bytes(ScalarKind k, const void* p) {
    Scalar s;
    s.kind_ = k;
    std::memcpy(&s.bits_, p, scalar_size(k));
    return s;
  }

private:
  ScalarKind kind_ = ScalarKind::Bool;
  uint64_t bits_ = 0;
};

// Canonical text of a scalar literal with its suffix, e.g. `42i32`, `1.5f32`,
// `true`, `nanf64`; reads back to the identical value (NaN payloads aside).
std::string format_literal(const Scalar& s);
// The value as a person reads it, without suffix (used when printing arrays).
std::string format_value(const Scalar& s);

} // namespace strata
