// The run-time errors every engine raises, built in one place so that an
// engine's error is the interpreter's: same kind, same message, same position.
#pragma once

#include <string>
#include <vector>

#include "core/array.h"
#include "core/error.h"
#include "core/prim.h"
#include "core/scalar.h"
#include "core/shape.h"

namespace strata {

// "division by zero in `quot` (7 quot 0)"
Error division_by_zero(Prim op, const Scalar& a, const Scalar& b, const SrcLoc& loc);
// "index (3) out of bounds for shape (3) in `!` of `xs`"; `op` is "!" or the
// operation fusion turned into this read (ex::Read::origin, e.g. `backpermute`).
Error index_out_of_bounds(const Index& ix, const Shape& sh, const std::string& op,
                          const std::string& array, const SrcLoc& loc);
// "linear index 7 out of bounds for size 6 (shape (2,3)) in `!!` of `xs`"
Error linear_index_out_of_bounds(int64_t i, const Shape& sh, const std::string& op,
                                 const std::string& array, const SrcLoc& loc);

// "foldseg: segment 2 has negative length -1"
Error foldseg_negative_segment(int64_t segment, int64_t length, const SrcLoc& loc);
// "foldseg: segment lengths sum to 5 but the innermost dimension of (2,6) is 6";
// `total` is -1 when the sum overflows.
Error foldseg_length_mismatch(int64_t total, const Shape& sh, const SrcLoc& loc);
// Where each of `count` segments starts in a row of the innermost extent of
// `sh`, after checking the lengths (the errors above).
std::vector<int64_t> foldseg_segment_starts(const int64_t* lengths, int64_t count, const Shape& sh,
                                            const SrcLoc& loc);

// "the program takes 2 input(s), given 1"
Error wrong_input_count(size_t expected, size_t given, const SrcLoc& loc);
// "parameter `xs` expects (array f32 1), given (array i32 1) of shape (3)"
Error wrong_input_type(const std::string& param, const Type& expected, const Array& given,
                       const SrcLoc& loc);

} // namespace strata
