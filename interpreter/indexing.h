// Index arithmetic shared by the interpreter and `explain`: row-major
// stepping, splitting off the innermost dimension, and stencil boundaries.
//
// Both evaluators must agree exactly on which element a stencil reads outside
// the array, so the boundary rule lives here once (LANGUAGE.md section 4).
#pragma once

#include <algorithm>
#include <utility>

#include "core/ir.h"
#include "core/shape.h"

namespace strata {

// Steps `ix` to the next index of `sh` in row-major order.
inline void next_index(Index& ix, const Shape& sh) {
  for (size_t k = ix.size(); k-- > 0;) {
    if (++ix[k] < sh[k]) return;
    ix[k] = 0;
  }
}

// The shape of all dimensions but the innermost, and the innermost extent.
inline std::pair<Shape, int64_t> split_inner(const Shape& sh) {
  return {Shape(sh.begin(), sh.end() - 1), sh.back()};
}

inline Shape with_inner(Shape outer, int64_t n) {
  outer.push_back(n);
  return outer;
}

// Applies a stencil boundary to one coordinate of extent n; returns -1 for `constant`.
inline int64_t boundary_coordinate(ac::BoundaryKind kind, int64_t i, int64_t n) {
  if (i >= 0 && i < n) return i;
  switch (kind) {
  case ac::BoundaryKind::Clamp: return std::clamp<int64_t>(i, 0, n - 1);
  case ac::BoundaryKind::Wrap: return ((i % n) + n) % n;
  case ac::BoundaryKind::Mirror: {
    // Reflect about the edges without repeating them: -1 -> 1, n -> n-2.
    if (n == 1) return 0;
    int64_t period = 2 * (n - 1);
    int64_t r = ((i % period) + period) % period;
    return r < n ? r : period - r;
  }
  case ac::BoundaryKind::Constant: return -1;
  }
  return -1;
}

} // namespace strata
