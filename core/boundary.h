// Stencil boundaries (docs/language.md, Collective operations, Stencils), shared by every engine:
// where a read at coordinate i of a dimension of extent n lands.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/ir.h"

namespace strata {

// The in-range coordinate to read, or -1 for a `constant` boundary (read the
// constant instead). clamp: -1 -> 0, n -> n-1; wrap: -1 -> n-1, n -> 0;
// mirror reflects without repeating the edge (-1 -> 1, n -> n-2), again and
// again for windows wider than the array; an extent of 1 always reads 0.
inline int64_t boundary_coordinate(ac::BoundaryKind kind, int64_t i, int64_t n) {
  if (i >= 0 && i < n) return i;
  switch (kind) {
  case ac::BoundaryKind::Clamp: return std::clamp<int64_t>(i, 0, n - 1);
  case ac::BoundaryKind::Wrap: return ((i % n) + n) % n;
  case ac::BoundaryKind::Mirror: {
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
