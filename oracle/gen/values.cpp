#include "oracle/gen/values.h"

#include <cmath>
#include <limits>
#include <type_traits>

namespace strata::gen {
namespace {

template <class T> T int_value(Choices& c) {
  using L = std::numeric_limits<T>;
  switch (c.weighted({4, 6, 3, 2, 2, 2, 8, 3})) {
  case 0: return T(0);
  case 1: return T(1);
  case 2: return T(-1); // wraps to MAX for unsigned types
  case 3: return L::min();
  case 4: return L::max();
  case 5: return T(2);
  case 6: return T(c.range(0, 20) - (std::is_signed_v<T> ? 10 : 0));
  default: {
    uint64_t bits = (uint64_t(c.next()) << 32) | c.next();
    return T(bits);
  }
  }
}

template <class T> T float_value(Choices& c, bool non_finite) {
  using L = std::numeric_limits<T>;
  int pick = c.weighted(
      {4, 1, 4, 3, 2, 2, 1, 1, 1, 10, non_finite ? 1 : 0, non_finite ? 1 : 0, non_finite ? 1 : 0});
  switch (pick) {
  case 0: return T(0);
  case 1: return T(-0.0);
  case 2: return T(1);
  case 3: return T(-1);
  case 4: return T(0.5);
  case 5: return T(0.001);
  case 6: return L::denorm_min();
  case 7: return L::max();
  case 8: return L::lowest();
  case 9: return T(c.range(-400, 400)) / T(8); // exact in both precisions
  case 10: return L::infinity();
  case 11: return -L::infinity();
  default: return L::quiet_NaN();
  }
}

} // namespace

Scalar edge_scalar(Choices& c, ScalarKind k, const ValueOptions& o) {
  return dispatch_kind(k, [&](auto tag) -> Scalar {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>)
      return Scalar::make<bool>(c.below(2) == 1);
    else if constexpr (std::is_floating_point_v<T>)
      return Scalar::make<T>(float_value<T>(c, o.non_finite));
    else
      return Scalar::make<T>(int_value<T>(c));
  });
}

Array random_array(Choices& c, const Type& elem, const Shape& shape, const ValueOptions& o) {
  Array a = Array::allocate(elem, shape);
  std::vector<ScalarKind> leaves = elem.leaves();
  for (size_t leaf = 0; leaf < leaves.size(); ++leaf)
    for (int64_t i = 0; i < a.size(); ++i)
      a.write(leaf, i, edge_scalar(c, leaves[leaf], o));
  return a;
}

Shape random_shape(Choices& c, int rank, int max_extent) {
  Shape sh;
  for (int d = 0; d < rank; ++d)
    sh.push_back(c.chance(8) ? 0 : c.range(1, max_extent));
  return sh;
}

} // namespace strata::gen
