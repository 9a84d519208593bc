#include "oracle/bounded_compare.h"

#include <cmath>
#include <limits>

#include "oracle/compare.h"

namespace strata {
namespace {

Scalar of_kind(ScalarKind kind, double v) {
  return kind == ScalarKind::F32 ? Scalar::make(float(v)) : Scalar::make(v);
}

double as_double(const Scalar& s) {
  return s.kind() == ScalarKind::F32 ? double(s.get<float>()) : s.get<double>();
}

std::string ulps_text(int64_t u) {
  if (u == std::numeric_limits<int64_t>::max()) return "";
  return " (" + std::to_string(u) + " ulp" + (u == 1 ? "" : "s") + ")";
}

// One line for a float found outside its determined bound, or "" when inside.
std::string outside(const BScalar& b, const Scalar& found) {
  double x = as_double(found);
  if (b.exact_nan())
    return std::isnan(x)
               ? ""
               : "found " + format_value(found) + ", but every legal evaluation gives NaN";
  if (x >= b.lo && x <= b.hi) return "";
  std::string line = "found " + format_value(found) + ", outside the bound [" +
                     format_value(of_kind(found.kind(), b.lo)) + ", " +
                     format_value(of_kind(found.kind(), b.hi)) + "]";
  if (std::isnan(x)) return line;
  double end = x < b.lo ? b.lo : b.hi;
  return line + " by " + format_value(of_kind(found.kind(), std::fabs(x - end))) +
         ulps_text(ulps_apart(found, of_kind(found.kind(), end)));
}

} // namespace

BoundedComparison compare_with_bounds(const BoundedArray& bounds, const Array& actual,
                                      size_t max_messages) {
  BoundedComparison c;
  const Array& expected = bounds.value;
  auto fail = [&](std::string line) {
    ++c.failures;
    if (c.messages.size() < max_messages) c.messages.push_back(std::move(line));
  };
  if (expected.type() != actual.type()) {
    fail("type differs: expected " + expected.type().str() + ", found " + actual.type().str());
    return c;
  }
  if (expected.shape() != actual.shape()) {
    fail("shape differs: expected " + shape_str(expected.shape()) + ", found " +
         shape_str(actual.shape()));
    return c;
  }
  for (int64_t i = 0; i < expected.size(); ++i) {
    for (size_t leaf = 0; leaf < expected.num_leaves(); ++leaf) {
      BScalar b = bounds.leaf(leaf, i);
      Scalar found = actual.read(leaf, i);
      auto where = [&] {
        std::string w = "element " + shape_str(from_linear(expected.shape(), i));
        if (expected.num_leaves() > 1) w += " component " + std::to_string(leaf);
        return w + ": ";
      };
      if (!b.determined()) {
        if (b.point.identical(found)) {
          ++c.counts.bitwise;
        } else {
          ++c.counts.not_compared;
          fail(where() + "found " + format_value(found) + ", the interpreter " +
               format_value(b.point) + "; not compared: " + why_text(b.why));
        }
      } else if (!b.is_float()) {
        ++c.counts.bitwise;
        if (!b.point.identical(found))
          fail(where() + "found " + format_value(found) + ", the interpreter " +
               format_value(b.point) + " (compared bitwise)");
      } else if (b.point.identical(found)) {
        ++c.counts.bitwise; // inside any bound: counted as what it is
      } else {
        ++c.counts.bounded;
        if (std::string line = outside(b, found); !line.empty()) fail(where() + line);
      }
    }
  }
  return c;
}

BoundedComparison compare_within(const Array& expected, const Array& actual, double rtol,
                                 double atol) {
  BoundedComparison c;
  if (auto diff = compare_arrays(expected, actual, Tolerance{rtol, atol, rtol, atol})) {
    c.failures = 1;
    c.messages.push_back(*diff + " (tolerance |x - e| <= " + std::to_string(atol) + " + " +
                         std::to_string(rtol) + " * |e|)");
  }
  // An element bitwise equal to its expected value counts as bitwise (as
  // every non-float does); the other floats were held to the tolerance.
  bool same_layout = expected.type() == actual.type() && expected.shape() == actual.shape();
  for (size_t leaf = 0; leaf < expected.num_leaves(); ++leaf)
    for (int64_t i = 0; i < expected.size(); ++i)
      (!is_float(expected.leaf_kind(leaf)) ||
               (same_layout && expected.read(leaf, i).identical(actual.read(leaf, i)))
           ? c.counts.bitwise
           : c.counts.bounded) += 1;
  return c;
}

} // namespace strata
