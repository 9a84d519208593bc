// Index arithmetic shared by the interpreter and `explain`: row-major
// stepping and splitting off the innermost dimension. Stencil boundaries come
// from core/boundary.h, shared with every engine, so that both evaluators agree
// exactly on which element a stencil reads outside the array.
#pragma once

#include <algorithm>
#include <utility>

#include "core/boundary.h"
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

// A permute target that drops its element: every component -1 (see docs/language.md).
inline bool is_ignore_target(const Index& target) {
  return !target.empty() &&
         std::all_of(target.begin(), target.end(), [](int64_t t) { return t == -1; });
}

inline Shape with_inner(Shape outer, int64_t n) {
  outer.push_back(n);
  return outer;
}

} // namespace strata
