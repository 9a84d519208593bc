// The lane path of the jit (docs/jit.md "Mandelbrot (lanes)"): a generate
// whose element function contains a `while` computes W consecutive elements
// of a row at once in LLVM vectors, the `while` running until every lane's
// condition is false (state updated in active lanes only), instead of one
// element (and one scalar loop) at a time. Results are those of the scalar
// path bit for bit: each lane performs the same IEEE operations in the same
// order as the scalar code (jit/scalar_codegen.cpp, jit/prim_codegen.cpp).
//
// Only lane-safe element functions take it: every form is one this file
// supports, and the only checks are those of reads (checked integer division,
// to-index / from-index: the scalar path then). Reads are masked gathers; a
// group in which an active lane's read is out of range runs again on the
// scalar path, which raises the error. Both sides of `if`, `and` and `or` are
// evaluated and selected, each under the mask of the lanes that take it, so a
// `while` in an untaken side does not run. Used by jit/kernel_builder.cpp
// only.
#pragma once

#include <functional>

#include "jit/fn_builder.h"

namespace strata::jit {

// How a generate's element function `f` runs in lanes: `width` elements per
// group (0: not at all, the scalar path); `may_fail`: a group can leave the
// lane code because an active lane's read fails its check (checked reads),
// for the generate's checked entry (lane_row).
struct LanePlan {
  int width = 0;
  bool may_fail = false;
};

// The lane plan of `f`: none unless `f` contains a `while` and is lane-safe
// under `checked`. A register holds the widest leaf of the `while` states (at
// least 32 bits): 16 x f32 with AVX-512, 8 with AVX2, 4 with SSE; a group
// spans up to 4 registers (independent dependency chains), fewer for large
// states, 2 for steps of many operations.
LanePlan lane_plan(const Lambda& f, bool checked);

// The row run [j0, j1) (non-empty; outer index `outer`, position of j0 `p0`)
// of a generate into `target`: groups of `plan.width` elements through the
// lane code of `elem`, the last one masked where the run ends inside it (no
// scalar code). A group in which an active lane's read fails its check hands
// the positions from its first on to the entry `f.checked_entry` (every
// check per element: it raises the error), before anything of it is stored.
void lane_row(FnBuilder& f, const Lambda& elem, const Type& type, int target, const LanePlan& plan,
              const Val& outer, llvm::Value* j0, llvm::Value* j1, llvm::Value* p0);

// Whether the lane code of `f` computes exactly what its scalar code does
// with no element read and nothing that can fail: a fold's combiner that
// jit/fold_codegen.h applies to vectors of lanes.
bool lane_combiner(const Lambda& f, bool checked);

// `fn` applied to `args` (vectors of `width` lanes) in every lane.
Val lanes_apply(FnBuilder& f, unsigned width, const Lambda& fn, const std::vector<Val>& args);

// The same for a function that reads arrays (a fold's element function), in
// the lanes of `mask` (<width x i1>, at least one lane active; null: every
// lane): checked, a block that leaves the lane code because an active lane's
// read is out of range is appended to `bails`, left open for the caller to
// end (it runs the lanes' work again with every check, which raises the
// error). Reads whose index is the same in every lane (a splat) under `mask`
// itself (no `if`, `and`, `or` or `while` narrows it) load once and splat
// the value.
Val lanes_apply_reading(FnBuilder& f, unsigned width, const Lambda& fn,
                        const std::vector<Val>& args, std::vector<llvm::BasicBlock*>& bails,
                        llvm::Value* mask = nullptr);

// Stores the lanes of `v` (a value of type `t`, <W x ...> leaves) at
// positions [first, first + W) of `target`: those of `mask` only (<W x i1>;
// null: every lane).
void store_lanes(FnBuilder& f, const Type& t, int target, llvm::Value* first, const Val& v,
                 llvm::Value* mask = nullptr);

// Whether a fold's or scan's chunk code (jit/fold_codegen.h) computes its
// elements in lanes with the element function `f`: lane code computes
// exactly what its scalar code does, with the only checks those of reads;
// no library call (one scalar call per lane: the loop vectoriser does
// better where a vector math library is on); and every read at the
// element's own index or at a fixed one (vector loads; a gather's lane code
// cost matmul's chunk entry twice its compile time).
bool chunk_in_lanes(const Lambda& f, bool checked);

// How many rows of a fold run at once, one row per lane, each folded left to
// right exactly as the scalar code folds it (jit/fold_codegen.h
// fold_rows_in_lanes): one register's worth of the widest leaf of the fold's
// element type `t` (at least 32 bits), or 0 when the element function `elem`
// is not lane-safe under `checked` or the combiner `fn` is not a lane
// combiner.
int fold_row_lanes(const Lambda& elem, const Lambda& fn, const Type& t, bool checked);

} // namespace strata::jit
