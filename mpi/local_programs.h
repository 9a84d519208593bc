// The programs a rank runs on its local engine (docs/mpi.md).
//
// A kernel of the kernel graph becomes a small program whose parameters are
// the arrays the kernel reads, run by the local engine (jit or tbb): the
// whole kernel (every array whole: bitwise what one machine computes), or,
// for kernels that distribute by rows, only this rank's rows. Then the
// arrays held as blocks (rows [lo, hi) of a distributed array) are read
// through their global shape and size (parameters `A__shape`, `A__size`) and
// only at the kernel's own row (`(! A i)` with i the element's index: an
// *aligned* read, which the local block serves); every other use of a block
// needs the whole array first (needs_whole).
#pragma once

#include <set>
#include <string>

#include "core/ir.h"
#include "fusion/kernel_graph.h"

namespace strata::mpi {

using Names = std::set<std::string>;

// The arrays in `blocks` that `e` uses other than through (shape A),
// (size A) and reads at index variable `aligned` ("": none) with
// its let-bound aliases, as long as no binder rebinds them.
Names needs_whole(const ExpPtr& e, const Names& blocks, const std::string& aligned = "");
Names needs_whole(const Lambda& f, const Names& blocks, const std::string& aligned = "");

// The arrays of `names` that `e` (f's body) mentions in any way.
Names uses(const ExpPtr& e, const Names& names);
Names uses(const Lambda& f, const Names& names);

// `e` reading the arrays in `blocks` as blocks: shape and size from the
// parameters A__shape, A__size; (! A aligned) becomes (! A local_index).
// needs_whole(e, blocks, aligned) must be empty.
ExpPtr localize(const ExpPtr& e, const Names& blocks, const std::string& aligned = "",
                const std::string& local_index = "");
Lambda localize(const Lambda& f, const Names& blocks);

// The element function of this rank's rows of a delayed array: element i of
// the block (shape `(the mpi__shape)`) is element (i0 + lo, i1, ...) of `d`
// with lo = `(the mpi__lo)`.
Lambda rows_elem(const Delayed& d, const Names& blocks);
// The index variable of `d`'s element function when its reads of blocks can
// be aligned (the parameter is not rebound inside), else "".
std::string aligned_index(const Delayed& d);

// The permute that combines, with `combine`, every element of the array
// `mpi__pairs` (of rank `rank`, elements (tuple value target)) into the
// array `mpi__acc` at its target, in row-major order.
AccPtr combine_pairs(const Lambda& combine, int rank);

// The names of the extra parameters.
std::string shape_param(const std::string& array);
std::string size_param(const std::string& array);
inline const std::string kLoParam = "mpi__lo";
inline const std::string kShapeParam = "mpi__shape";

} // namespace strata::mpi
