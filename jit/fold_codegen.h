// Folds as LLVM IR: a loop carrying an accumulator, and the total of one
// chunk under the declared lane tree of core/reduction_order.h (the blocked
// order's chunk_total), the same steps as interpreter/ordered_reductions.h.
// Used by jit/fold_kernel.cpp and jit/scan_kernel.cpp only.
#pragma once

#include <functional>
#include <optional>

#include "jit/fn_builder.h"

namespace strata::jit {

// A loop over j in [lo, hi) carrying `init` through `step(acc, j)`, in order;
// returns the final value (`init` when the range is empty).
Val fold_loop(FnBuilder& f, llvm::Value* lo, llvm::Value* hi, const Val& init,
              const std::function<Val(const Val&, llvm::Value*)>& step);

// The total of a chunk of `m` (at least 1) elements `elem(q)`, q in [0, m),
// with `lanes` lanes (chunk_lanes of the order): lane k starts at element k
// and folds elements k + lanes, k + 2 lanes, ... in order; then the lanes
// fold by halves, an odd middle lane waiting a level. Combining is
// fn(acc, x), or fn(x, acc) when `swapped` (a right scan reads backwards).
// A scalar int or float element with a combiner the lane code generator
// takes (jit/lane_codegen.h lane_combiner) keeps the lanes in one LLVM vector
// <lanes x T>: vector code with no fast-math flag; anything else (tuples,
// bools, calls that can fail) keeps them in an array of `lanes`
// accumulators, combined by the scalar code. Integer + * min max band bor
// bxor give the same bits in every order: those fold left to right.
//
// Where short_chunks_apart holds, `lengths` says which chunks the code is
// for, each in an entry of its own (jit/kernel_builder.h chunk_entry): those
// of at least `lanes` elements (the vector, whose reads at positions affine
// in the element's are checked once per chunk: f.chunk_reads,
// jit/chunk_reads.cpp), or any chunk (the array, every check per element:
// the chunks shorter than the lanes, and those in which a read checked once
// per chunk fails). Elsewhere one code takes any length and `lengths` is
// not used; the array code checks such reads once per chunk too where
// f.checked_entry names an entry to hand a failing chunk to.
//
// Element q of the chunk is `element.fn` applied to `element.index(q)`: q an
// i64, or in lane code (where the element function is lane-safe,
// jit/lane_codegen.h chunk_in_lanes, and the vector code applies) an <L x i64> of
// positions, lane k at position first + k, for which the index is built of
// the same operations on vectors (FnBuilder::like splats the scalars).
struct ChunkElement {
  const Lambda* fn;
  std::function<Val(llvm::Value* q)> index;
};
enum class ChunkLengths { AtLeastLanes, Any };
Val chunk_total(FnBuilder& f, const Type& t, const Lambda& fn, bool swapped, int lanes,
                llvm::Value* m, const ChunkElement& element, ChunkLengths lengths);

// Whether `fn` is an integer combiner that reorders exactly (core/combiner.h:
// + * min max band bor bxor, either operand first): every association and
// operand order gives the same bits (wrapping), so an engine may run it in
// any order (core/reduction_order.h): such a chunk folds left to right, a
// loop LLVM vectorises as it likes.
bool exactly_associative(const Lambda& fn, const Type& t);

// Whether chunk_total keeps the lanes of `t` under `fn` in one vector, so
// that chunks shorter than `lanes` take other code (the array).
bool short_chunks_apart(const Type& t, const Lambda& fn, int lanes, bool checked);

// How many rows (segments) of a fold (foldseg) the main entry folds at once,
// one per lane: 0 where `fn` reorders exactly (LLVM vectorises along the
// row instead), else jit/lane_codegen.h fold_row_lanes.
int rows_in_lanes(const Lambda& elem, const Lambda& fn, const Type& t, bool checked);

// Rows [r0, r1) of a fold into `target` (row r's result at position r), each
// row folded left to right over its `n` elements `elem(outer index, j)` from
// `seed` (fold1: from element 0), as the scalar code does: groups of `width`
// consecutive rows (jit/lane_codegen.h fold_row_lanes) in LLVM vectors, one
// row per lane, so every lane performs the scalar code's operations in its
// order and the results are its bits; the last group's lanes past r1 masked
// off. A group in which a read fails its check is handed, from its first row
// on, to f.checked_entry (the same rows with every check, which raises the
// first error in element order). `outer` is the shape of the rows (the
// input's shape without its innermost extent).
void fold_rows_in_lanes(FnBuilder& f, const Lambda& elem, const Lambda& fn, const Type& t,
                        int target, int width, const Val& outer, llvm::Value* n, llvm::Value* r0,
                        llvm::Value* r1, const std::optional<Val>& seed);

// Units [u0, u1) of a foldseg into `target` (unit u = row * segments + s at
// position u), each segment s of a row folded left to right from `seed` over
// its elements `elem(outer index, offsets[s] + q)`, q < lengths[s]
// (`offsets`, `lengths`: pointers to i64), as the scalar code does: groups of
// `width` consecutive units in vectors, one unit per lane, the lanes whose
// segment has ended keeping their accumulator. A group whose longest segment
// is more than 4 times its mean (most lanes would idle), the units left, and
// a group in which a read fails its check (from the group's first unit on,
// raising the scalar code's error) go through `scalar_unit(u)`.
void foldseg_units_in_lanes(FnBuilder& f, const Lambda& elem, const Lambda& fn, const Type& t,
                            int target, int width, const Val& outer, llvm::Value* segments,
                            llvm::Value* offsets, llvm::Value* lengths, llvm::Value* u0,
                            llvm::Value* u1, const Val& seed,
                            const std::function<void(llvm::Value*)>& scalar_unit);

} // namespace strata::jit
