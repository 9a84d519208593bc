#include "core/scalar.h"

#include <array>
#include <charconv>
#include <cmath>

namespace strata {
namespace {
constexpr std::array<std::string_view, kNumScalarKinds> kNames = {
    "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64"};
constexpr std::array<size_t, kNumScalarKinds> kSizes = {1, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8};

template <class T> std::string shortest(T v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}
} // namespace

std::string_view scalar_name(ScalarKind k) { return kNames[static_cast<size_t>(k)]; }

std::optional<ScalarKind> scalar_from_name(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return static_cast<ScalarKind>(i);
  return std::nullopt;
}

size_t scalar_size(ScalarKind k) { return kSizes[static_cast<size_t>(k)]; }

bool is_signed(ScalarKind k) {
  switch (k) {
  case ScalarKind::I8:
  case ScalarKind::I16:
  case ScalarKind::I32:
  case ScalarKind::I64:
  case ScalarKind::F32:
  case ScalarKind::F64: return true;
  default: return false;
  }
}

int bit_width(ScalarKind k) { return k == ScalarKind::Bool ? 1 : int(scalar_size(k) * 8); }

std::string format_value(const Scalar& s) {
  return s.visit([](auto v) -> std::string {
    using T = decltype(v);
    if constexpr (std::is_same_v<T, bool>) {
      return v ? "true" : "false";
    } else if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(v)) return "nan";
      if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
      return shortest(v);
    } else {
      return std::to_string(v);
    }
  });
}

std::string format_literal(const Scalar& s) {
  return s.visit([&](auto v) -> std::string {
    using T = decltype(v);
    std::string suffix(scalar_name(s.kind()));
    if constexpr (std::is_same_v<T, bool>) {
      return v ? "true" : "false";
    } else if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(v)) return "nan" + suffix;
      if (std::isinf(v)) return (v > 0 ? "inf" : "-inf") + suffix;
      std::string text = shortest(v);
      if (text.find_first_of(".e") == std::string::npos) text += ".0";
      return std::is_same_v<T, double> ? text : text + suffix;
    } else {
      std::string text = std::to_string(v);
      return std::is_same_v<T, int64_t> ? text : text + suffix;
    }
  });
}

} // namespace strata
