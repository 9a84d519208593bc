// The run-time errors every engine raises, built in one place so that an
// engine's error is the interpreter's: same kind, same message, same position.
#pragma once

#include <string>
#include <vector>

#include "core/array.h"
#include "core/error.h"
#include "core/ir.h"
#include "core/prim.h"
#include "core/scalar.h"
#include "core/shape.h"

namespace strata {

// Every message is built from what every engine knows at the failing check:
// the operation, the program's names for arrays (never an engine's internal
// `a3`: fusion carries the source name, ex::Read::source) and the values. The
// position is the failing operation's: the `!`, `!!`, `to-index`,
// `from-index` or primitive expression, or the collective form (`slice`,
// `reshape`, `backpermute`, `permute`, `fold1`, a shape's operation).

// "division by zero in `quot` (7 quot 0)"
Error division_by_zero(Prim op, const Scalar& a, const Scalar& b, const SrcLoc& loc);
// "index (3) out of bounds for shape (3) in `!` of `xs`"; `op` is "!" or the
// operation fusion turned into this read (ex::Read::origin): a `backpermute`
// read gives backpermute_source_out_of_bounds.
Error index_out_of_bounds(const Index& ix, const Shape& sh, const std::string& op,
                          const std::string& array, const SrcLoc& loc);
// The operation and the array that a bounds error of a read names: `!` / `!!`
// and the array variable, or the operation fusion turned into the read
// (ex::Read::origin) and the program's name for the array (ex::Read::source).
struct ReadNames {
  std::string op, array;
};
ReadNames read_names(const ex::Read& r);
ReadNames read_names(const ex::LinearRead& r);
// "to-index", or the operation fusion turned into the conversion.
std::string to_index_op(const ex::ToIndex& t);

// "linear index 7 out of bounds for size 6 (shape (2,3)) in `!!` of `xs`"
Error linear_index_out_of_bounds(int64_t i, const Shape& sh, const std::string& op,
                                 const std::string& array, const SrcLoc& loc);
// "index (2,0) out of bounds for shape (2,3) in `to-index`"; `op` is
// "to-index" or ex::ToIndex::origin (`backpermute`: the backpermute form).
Error to_index_out_of_bounds(const Index& ix, const Shape& sh, const std::string& op,
                             const SrcLoc& loc);
// "linear index 6 out of bounds for size 6 (shape (2,3)) in `from-index`"
Error from_index_out_of_bounds(int64_t i, const Shape& sh, const SrcLoc& loc);
// "source index (6) out of bounds for shape (6) in `backpermute`"
Error backpermute_source_out_of_bounds(const Index& from, const Shape& sh, const SrcLoc& loc);
// "target index (5) out of bounds for shape (3) in `permute` (source element (0))"
Error permute_target_out_of_bounds(const Index& target, const Shape& sh, const Index& source,
                                   const SrcLoc& loc);
// "slice index 5 out of bounds for dimension 0 (extent 3) in `slice`"
Error slice_index_out_of_bounds(int64_t i, int dim, int64_t extent, const SrcLoc& loc);

// "negative extent in shape (2,-3) of `fill`" (also `replicate`'s result shape)
Error negative_extent(const Shape& sh, const std::string& op, const SrcLoc& loc);
// negative_extent if an extent is < 0; allocation_failed if they overflow.
void check_extents(const Shape& sh, const std::string& op, const SrcLoc& loc);
// "reshape from shape (6) (6 elements) to shape (4,2) (8 elements): sizes differ"
Error reshape_size_mismatch(const Shape& from, const Shape& to, const SrcLoc& loc);
// "fold1 over an empty row (row (0,0) of shape (2,3,0))": the first row.
Error fold1_empty_row(const Shape& sh, const SrcLoc& loc);
// A failed allocation or size count (`Resource`, core/array.h, core/shape.h)
// of operation `op`'s result: "array of shape (...) is too large in `fill`".
Error allocation_failed(const Error& err, const std::string& op, const SrcLoc& loc);
// The error allocation_failed was given, from what it made: for a runner that
// runs a kernel as a program of its own (mpi/), whose operation the error
// must name instead.
Error allocation_unattributed(const Error& attributed);

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
Error wrong_input_type(const std::string& param, const Type& expected, const Type& given,
                       const Shape& shape, const SrcLoc& loc);

} // namespace strata
