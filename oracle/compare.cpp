#include "oracle/compare.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

namespace strata {
namespace {

bool close(double e, double a, double rtol, double atol) {
  if (std::isnan(e) || std::isnan(a)) return std::isnan(e) && std::isnan(a);
  if (std::isinf(e) || std::isinf(a)) return e == a;
  return std::fabs(a - e) <= atol + rtol * std::fabs(e);
}

bool leaf_equal(const Scalar& e, const Scalar& a, const Tolerance& t) {
  switch (e.kind()) {
  case ScalarKind::F32: return close(e.get<float>(), a.get<float>(), t.f32_rtol, t.f32_atol);
  case ScalarKind::F64: return close(e.get<double>(), a.get<double>(), t.f64_rtol, t.f64_atol);
  default: return e.identical(a);
  }
}

// The bits of a float scalar in hex: "0x3fc00000".
std::string hex_bits(const Scalar& s) {
  std::ostringstream o;
  o << "0x" << std::hex;
  if (s.kind() == ScalarKind::F32) {
    float f = s.get<float>();
    uint32_t u = 0;
    std::memcpy(&u, &f, sizeof u);
    o << u;
  } else {
    double d = s.get<double>();
    uint64_t u = 0;
    std::memcpy(&u, &d, sizeof u);
    o << u;
  }
  return o.str();
}

// Orders the bit patterns of floats monotonically: -0.0 and 0.0 are adjacent.
template <class Bits, class F> int64_t ordered(F f) {
  Bits u = 0;
  std::memcpy(&u, &f, sizeof u);
  constexpr Bits sign = Bits(1) << (sizeof(Bits) * 8 - 1);
  return (u & sign) ? -int64_t(u & ~sign) - 1 : int64_t(u);
}

} // namespace

int64_t ulps_apart(const Scalar& a, const Scalar& b) {
  constexpr int64_t far = std::numeric_limits<int64_t>::max();
  if (a.kind() == ScalarKind::F32) {
    float x = a.get<float>(), y = b.get<float>();
    if (!std::isfinite(x) || !std::isfinite(y)) return x == y ? 0 : far;
    int64_t d = ordered<uint32_t>(x) - ordered<uint32_t>(y);
    return d < 0 ? -d : d;
  }
  if (a.kind() == ScalarKind::F64) {
    double x = a.get<double>(), y = b.get<double>();
    if (!std::isfinite(x) || !std::isfinite(y)) return x == y ? 0 : far;
    // Saturates where the distance does not fit in int64.
    int64_t d = 0;
    if (__builtin_sub_overflow(ordered<uint64_t>(x), ordered<uint64_t>(y), &d) ||
        d == std::numeric_limits<int64_t>::min())
      return far;
    return d < 0 ? -d : d;
  }
  return a.identical(b) ? 0 : far;
}

std::optional<std::string> compare_bitwise(const Array& expected, const Array& actual) {
  if (expected.type() != actual.type())
    return "type differs: expected " + expected.type().str() + ", found " + actual.type().str();
  if (expected.shape() != actual.shape())
    return "shape differs: expected " + shape_str(expected.shape()) + ", found " +
           shape_str(actual.shape());
  for (int64_t i = 0; i < expected.size(); ++i) {
    for (size_t leaf = 0; leaf < expected.num_leaves(); ++leaf) {
      Scalar e = expected.read(leaf, i), a = actual.read(leaf, i);
      if (e.identical(a)) continue; // NaNs too: every engine stores one NaN
      std::string where = "element " + shape_str(from_linear(expected.shape(), i));
      if (expected.num_leaves() > 1) where += " component " + std::to_string(leaf);
      std::string detail = where + ": expected " + format_value(e);
      bool is_float = e.kind() == ScalarKind::F32 || e.kind() == ScalarKind::F64;
      if (is_float) detail += " (" + hex_bits(e) + ")";
      detail += ", found " + format_value(a);
      if (is_float) {
        detail += " (" + hex_bits(a) + ")";
        int64_t u = ulps_apart(e, a);
        if (u != std::numeric_limits<int64_t>::max())
          detail += ", " + std::to_string(u) + " ulp" + (u == 1 ? "" : "s") + " apart";
      }
      return detail;
    }
  }
  return std::nullopt;
}

std::optional<std::string> compare_arrays(const Array& expected, const Array& actual,
                                          const Tolerance& tolerance) {
  if (expected.type() != actual.type())
    return "type differs: expected " + expected.type().str() + ", found " + actual.type().str();
  if (expected.shape() != actual.shape())
    return "shape differs: expected " + shape_str(expected.shape()) + ", found " +
           shape_str(actual.shape());
  for (size_t leaf = 0; leaf < expected.num_leaves(); ++leaf) {
    for (int64_t i = 0; i < expected.size(); ++i) {
      Scalar e = expected.read(leaf, i), a = actual.read(leaf, i);
      if (!leaf_equal(e, a, tolerance)) {
        std::string where = "element " + shape_str(from_linear(expected.shape(), i));
        if (expected.num_leaves() > 1) where += " component " + std::to_string(leaf);
        return where + ": expected " + format_value(e) + ", found " + format_value(a);
      }
    }
  }
  return std::nullopt;
}

} // namespace strata
