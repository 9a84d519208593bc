#include "oracle/compare.h"

#include <cmath>

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

} // namespace

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
