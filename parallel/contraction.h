// Contractions run as tiled, vectorised loops: the executor the CPU engines
// (tbb and jit) share for the folds fusion/contraction.h recognises; neither
// engine owns it.
//
// The loop variables v0 .. v(R-1) of the fold's input (v(R-1) folded) are
// grouped as batch (v0 .. v(R-4)), i (v(R-3)), j (v(R-2)) and k (v(R-1));
// out[b, i, j] = seed + x(b,i,j,0)*y(b,i,j,0) + x(b,i,j,1)*y(b,i,j,1) + ...,
// added left to right in k exactly as the interpreter folds a row (the
// declared order of every row the order does not chunk), with the operands of
// each `*` and `+` in the program's order. What is vectorised is j: lanes are
// different output elements, never parts of one sum, so every element is
// bitwise the sequential fold's.
//
// Algorithm: an operand that does not depend on j is a "row" operand, read as
// a scalar per (i, k) and broadcast; the other is packed, per batch, per
// panel of NR consecutive j and per block of KC values of k, into a
// contiguous [k][NR] buffer (zero-padded past the last j). A tile of MR rows
// of i by NR columns of j keeps its MR x NR accumulators in registers for a
// block of k; between blocks they wait in the result, which holds exactly the
// running sums. When both operands depend on j, or the packed one also
// depends on i, i is treated as a batch variable (MR = 1). Tiles run as
// oneTBB tasks over (batch, j panel, group of i rows); each output element is
// computed by one task in the same order whatever the threads, so the result
// is deterministic. Vector width and MR, NR follow the CPU (AVX-512, AVX2 or
// SSE2 code, chosen at run time); no FMA (the project builds with
// -ffp-contract=off).
#pragma once

#include <cstdint>
#include <vector>

#include "core/array.h"
#include "core/shape.h"
#include "core/types.h"
#include "fusion/kernel_graph.h"

namespace strata::parallel {

struct ContractionInput {
  const void* data = nullptr; // row-major
  Shape shape;
  std::vector<int> vars; // vars[d]: the loop variable indexing dimension d
};

struct ContractionRun {
  ScalarKind kind = ScalarKind::F32; // F32, F64, I32 or I64 (wrapping)
  ContractionInput x, y;             // each element is (* x y)
  Shape loop;                        // the extents of v0 .. v(R-1), R >= 2
  void* out = nullptr;               // row-major, the loop's shape without v(R-1)
  const void* seed = nullptr;        // one element; null: fold1 (rows start at the first product)
};

// Runs `run` and returns true; or returns false, having written nothing, when
// some read would fall outside its array (the caller's general fold then
// raises the interpreter's error) or the kind is not supported.
bool run_contraction(const ContractionRun& run);

// How many contractions this process has run (the fast path taken): for tests
// and reports.
uint64_t contractions_run();

// An engine's fold kernel: when `fold` is a contraction
// (fusion/contraction.h) of enough work to pay, runs it into `out` (allocated,
// the loop's shape without its last extent) and returns true; `arrays` are
// the run's manifest arrays by id, `loop` the fold input's shape, `seed` the
// seed's value (null for fold1). Only for rows the declared order does not
// chunk (the caller checks). False: the caller runs its general fold.
bool fold_as_contraction(const KernelGraph& g, const kn::Fold& fold,
                         const std::vector<Array>& arrays, const Shape& loop, const void* seed,
                         Array& out);

} // namespace strata::parallel
