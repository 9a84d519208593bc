// Scans of long rows with a recognised operation (tbb/fold_native.h), as
// typed loops over contiguous batches of elements.
//
// A row is cut into chunks of NativeScan::chunk elements (scan order), the
// order's scan_chunk (tbb/fold_native.h: native_order). Phase 1 folds every
// chunk by the chunk tree (fold_chunk_native, in scan order: backwards for
// right scans); phase 2 combines the chunk totals in order into the value
// each chunk starts from; phase 3 runs the element function on kBatch
// consecutive elements at a time and scans them in order from that value,
// writing the outputs directly. A row of one chunk is scanned exactly in the
// interpreter's order. This is the declared order of core/reduction_order.h
// (+ and * on floats are commutative exactly, so f(x, acc) = f(acc, x) in
// right scans). Chunks depend on the row length only, never on the threads.
#pragma once

#include <optional>

#include "tbb/fold_native.h"

namespace strata::tbbe {

struct NativeScan {
  ac::ScanKind kind;
  Shape shape;   // of the input
  int64_t n = 0; // input row length (>= 1)
  int64_t m = 0; // output row length
  bool right = false;
  std::optional<Scalar> seed;
  NativeFold op;
  const Lambda* elem = nullptr;
  int64_t chunk = 1; // elements per chunk (>= 1): n for an unchunked row
};

// Scans every row into `out` (the seed's own place excepted); returns each
// row's final accumulator.
std::vector<Scalar> scan_native(Runtime& rt, const NativeScan& s, Array& out);

} // namespace strata::tbbe
