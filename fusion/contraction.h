// Contractions: folds that are sums of products of two manifest arrays read at
// loop-variable indices (matrix multiply, matrix-vector, batched dot
// products), recognised on the kernel graph so that the CPU engines can run
// them as tiled, vectorised loops (parallel/contraction.h). docs/fusion.md,
// "Contractions".
//
// A kn::Fold whose input has rank R has the loop variables v0 .. v(R-1) (the
// components of the input's index; v(R-1) is the one folded). It is a
// contraction when
//   - its function is (lambda (acc e) (+ acc e)) on f32 or f64 (the
//     accumulator first: the engines keep the operand order), or on i32 or
//     i64 with either operand first (wrapping: the same bits);
//   - its element is (* X Y), X and Y reads (! A ix) of manifest arrays whose
//     index components are distinct loop variables, reached through let,
//     proj and ix only (what fusing replicate, backpermute by a permutation
//     of the index, and zipwith gives).
// The element then is X(v) * Y(v), and no element can fail once every loop
// extent is within the extent of the array dimension it indexes, which the
// executor checks before taking the fast path (an engine falls back to its
// general fold otherwise, which raises the interpreter's error).
#pragma once

#include <optional>
#include <vector>

#include "fusion/kernel_graph.h"

namespace strata {

struct ContractionOperand {
  ArrayId array = -1;
  std::vector<int> vars; // vars[d]: the loop variable that indexes dimension d
};

struct Contraction {
  ScalarKind kind = ScalarKind::F32; // f32, f64, i32 or i64: the elements, operands and seed
  ContractionOperand x, y;           // the element is (* x y), x first
};

// The contraction `fold` is, or nullopt.
std::optional<Contraction> find_contraction(const KernelGraph& g, const kn::Fold& fold);

} // namespace strata
