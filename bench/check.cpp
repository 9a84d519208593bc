#include "bench/check.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace strata::bench {

namespace {

std::string shape_text(const Shape& s) {
  std::ostringstream o;
  o << "(";
  for (size_t i = 0; i < s.size(); ++i)
    o << (i ? " " : "") << s[i];
  o << ")";
  return o.str();
}

double as_double(const Array& a, size_t leaf, int64_t i) {
  return a.leaf_kind(leaf) == ScalarKind::F32 ? double(a.leaf_data<float>(leaf)[i])
                                              : a.leaf_data<double>(leaf)[i];
}

} // namespace

std::optional<std::string> check_results(const std::vector<Array>& expected,
                                         const std::vector<Array>& actual, double rtol) {
  if (expected.size() != actual.size())
    return "expected " + std::to_string(expected.size()) + " results, got " +
           std::to_string(actual.size());
  for (size_t r = 0; r < expected.size(); ++r) {
    const Array &e = expected[r], &a = actual[r];
    std::string where = "result " + std::to_string(r);
    if (e.shape() != a.shape())
      return where + ": shape " + shape_text(a.shape()) + ", expected " + shape_text(e.shape());
    if (e.num_leaves() != a.num_leaves()) return where + ": different element type";
    for (size_t l = 0; l < e.num_leaves(); ++l) {
      if (e.leaf_kind(l) != a.leaf_kind(l)) return where + ": different element type";
      if (!is_float(e.leaf_kind(l))) {
        for (int64_t i = 0; i < e.size(); ++i)
          if (!e.read(l, i).identical(a.read(l, i)))
            return where + ": element " + std::to_string(i) + " differs";
        continue;
      }
      double scale = 0;
      for (int64_t i = 0; i < e.size(); ++i)
        scale = std::max(scale, std::fabs(as_double(e, l, i)));
      const double tol = rtol * scale;
      for (int64_t i = 0; i < e.size(); ++i) {
        double x = as_double(e, l, i), y = as_double(a, l, i);
        if (std::isnan(x) && std::isnan(y)) continue;
        if (x == y || std::fabs(x - y) <= tol) continue;
        std::ostringstream o;
        o.precision(9);
        o << where << ": element " << i << " is " << y << ", expected " << x << " (tolerance "
          << tol << ")";
        return o.str();
      }
    }
  }
  return std::nullopt;
}

} // namespace strata::bench
