// Values for generated programs: scalar literals and input arrays that hit the
// edge cases of docs/language.md, Pinned semantics (0, -1, MIN, MAX, -0.0, NaN, infinities,
// subnormals) often, and ordinary values otherwise.
#pragma once

#include <string>

#include "core/array.h"
#include "oracle/gen/choices.h"

namespace strata::gen {

struct ValueOptions {
  // Whether NaN and infinities may be chosen for floats (inputs: only in some
  // cases; literals: always allowed, see docs/testing.md).
  bool non_finite = true;
};

// One scalar of kind k; choice 0 is the value 0 (false).
Scalar edge_scalar(Choices& c, ScalarKind k, const ValueOptions& o = {});
// An array of the element type and shape, every leaf filled with edge_scalar values.
Array random_array(Choices& c, const Type& elem, const Shape& shape, const ValueOptions& o = {});
// A shape of the rank with extents in [0, max_extent], 0 being rare.
Shape random_shape(Choices& c, int rank, int max_extent = 4);

} // namespace strata::gen
