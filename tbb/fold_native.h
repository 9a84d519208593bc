// fold over long rows with a recognised commutative operation, as typed loops.
//
// `(lambda ((a T) (b T)) (op a b))` (or `(op b a)`) with op + * min max band
// bor bxor on an integer type, or + * on a float type, is commutative and
// associative (floats: associative within the tolerance policy of
// docs/testing.md, commutative exactly). Such a fold may give accumulator lane l
// of a chunk the elements l, l+L, l+2L, ... (L lanes fill eight 16-byte
// vectors): the element function then runs on kBatch consecutive elements at
// once (read in place) and each step is one typed loop over registers, with
// no combiner code. The lanes are combined by a fixed tree (halves), so the
// result depends on the chunk length only, never on the threads.
#pragma once

#include <optional>

#include "core/ir.h"
#include "core/prim.h"
#include "tbb/runtime.h"

namespace strata::tbbe {

struct NativeFold {
  Prim op = Prim::Add;
  ScalarKind type = ScalarKind::I64;
};

// How `f` combines, if it is one of the forms above.
std::optional<NativeFold> recognise_fold(const Lambda& f);

// Folds elements [start, start+len) (row-major positions, len >= 1, within one
// row) of the delayed input whose element function is `elem` and whose shape
// is `shape`, without a seed. Errors are those of the first failing element.
Leaves fold_chunk_native(Runtime& rt, const Lambda& elem, const Shape& shape, int64_t start,
                         int64_t len, const NativeFold& op);

} // namespace strata::tbbe
