// Where a scan reads and writes within a row (docs/language.md "Scans
// (blocked)"): the one home of the layout, for every engine that scans on
// the host. Generated code (jit/scan_kernel.cpp, cuda/scan_kernel.cpp)
// computes the same indices in its own IR.
//
// A row of n elements is read in scan order, positions q = 0 .. n-1: left to
// right for scanl scanl1 scanl', backwards for scanr scanr1. The accumulator
// after position q is output q for scanl1, q+1 for scanl and scanl' (not the
// last: that is scanl''s total only), and element n-1-q for scanr scanr1;
// the seed is scanl's and scanl''s first output and scanr's last.
#pragma once

#include <cstdint>

#include "core/ir.h"

namespace strata {

// scanr and scanr1 read their rows backwards and combine as (f x acc).
constexpr bool scans_from_the_right(ac::ScanKind k) {
  return k == ac::ScanKind::Scanr || k == ac::ScanKind::Scanr1;
}

// Whether the scan has a seed (all but scanl1 and scanr1).
constexpr bool scan_is_seeded(ac::ScanKind k) {
  return k != ac::ScanKind::Scanl1 && k != ac::ScanKind::Scanr1;
}

// The extent of an output row for an input row of n (scanl, scanr: n + 1).
constexpr int64_t scan_output_extent(ac::ScanKind k, int64_t n) {
  return k == ac::ScanKind::Scanl || k == ac::ScanKind::Scanr ? n + 1 : n;
}

// The input element of scan-order position q, within a row of n.
constexpr int64_t scan_element(ac::ScanKind k, int64_t n, int64_t q) {
  return scans_from_the_right(k) ? n - 1 - q : q;
}

// The output of the accumulator after position q, within its row, or -1
// (scanl''s last position: only its total).
constexpr int64_t scan_output_after(ac::ScanKind k, int64_t n, int64_t q) {
  switch (k) {
  case ac::ScanKind::Scanl: return q + 1;
  case ac::ScanKind::ScanlPrime: return q + 1 < n ? q + 1 : -1;
  case ac::ScanKind::Scanl1: return q;
  case ac::ScanKind::Scanr:
  case ac::ScanKind::Scanr1: return n - 1 - q;
  }
  return -1;
}

// The output of the seed within its row, or -1 (no seed, or an empty scanl':
// its seed is only its total).
constexpr int64_t scan_seed_output(ac::ScanKind k, int64_t n) {
  switch (k) {
  case ac::ScanKind::Scanl: return 0;
  case ac::ScanKind::ScanlPrime: return n > 0 ? 0 : -1;
  case ac::ScanKind::Scanr: return n;
  case ac::ScanKind::Scanl1:
  case ac::ScanKind::Scanr1: return -1;
  }
  return -1;
}

} // namespace strata
