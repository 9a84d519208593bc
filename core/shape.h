// Shapes and indices of regular arrays, any rank, row-major.
//
// A shape lists extents outermost first. Sizes are computed with overflow
// checks so that a huge shape is a clear error instead of a wrapped product.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace strata {

using Shape = std::vector<int64_t>;
using Index = std::vector<int64_t>;

// Product of the extents; throws Error(Resource) on negative extents or overflow.
int64_t shape_size(const Shape& sh);
bool in_bounds(const Shape& sh, const Index& ix);
// Row-major linear position of ix in sh (ix assumed in bounds).
int64_t to_linear(const Shape& sh, const Index& ix);
// Inverse of to_linear.
Index from_linear(const Shape& sh, int64_t i);
// "(3,4)" — the form used in messages and printing.
std::string shape_str(const std::vector<int64_t>& sh);

} // namespace strata
