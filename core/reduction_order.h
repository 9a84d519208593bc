// The association order of reductions, as data (issue 16).
//
// Reductions (`fold fold1 foldseg scan* permute`) may be reassociated; docs/language.md,
// "Association order of reductions", pins *how*: every engine declares the order it runs as a
// ReductionOrder, which depends only on the program's element types and the
// data sizes (never on threads or the machine), and the interpreter evaluates
// a program under any declared order (InterpreterOptions::order). The oracle
// replays an engine's order and compares every element bitwise.
//
// The orders:
//  - canonical(): the spec's order, what `strata run` prints by default: every
//    row left to right, (f acc x), the seed first.
//  - blocked(): the order every engine (tbb, jit, cuda) runs by default, so
//    that their float results are bitwise the same as each other's and the
//    oracle's. Its parameters are data: engines run any ReductionOrder they
//    are asked for (CompileOptions::order), small() included.
//
// The blocked order, for a row of n elements x0 .. x(n-1) (scan order: a
// right scan reads the row backwards and combines g(acc, x) = f(x, acc)):
//
//  fold, fold1, n < fold_chunked_from: left to right, f(..f(f(z, x0), x1).., x(n-1)).
//  Otherwise the row is cut into chunks of fold_chunk elements (the last may
//  be shorter), and
//    chunk_total(chunk of m elements, L = chunk_lanes(order, elem, f) lanes,
//    core/combiner.h: fold_lanes(elem) strided lanes when f provably commutes,
//    else one lane, the chunk left to right):
//      used = min(L, m); lane k (k < used) starts at element k of the chunk
//      and folds elements k+L, k+2L, ... in order: lane[k] = f(lane[k], x).
//      Then the lanes fold by halves, an odd middle lane waiting a level:
//        count = used
//        while count > 1: half = count/2; rest = count - half
//                         lane[k] = f(lane[k], lane[rest + k]) for k < half
//                         count = rest
//      The total is lane[0].
//    row = f(..f(f(z, total0), total1).., total(K-1)); fold1: total0 first.
//
//  scans (scanl scanl1 scanr scanr1 scanl'), n < scan_chunked_from: left to
//  right in scan order. Otherwise chunks of scan_chunk elements: each chunk's
//  total is chunk_total above (with fold_lanes lanes, combining with g);
//  carry0 = z (none for scanl1/scanr1), carry(j+1) = g(carry j, total j) (or
//  total j when there is no carry); chunk j is then scanned left to right
//  from carry j. The last accumulator is scanl's last element, scanr's first
//  and scanl' 's total.
//
//  foldseg: every segment left to right from the seed, in both orders.
//  permute: source row-major order, in both orders (engines may run a
//  combiner in parallel only where that gives bitwise the source-order
//  result: integer + * min max band bor bxor, bool and/or, `old`, and `new`
//  when the last source element in row-major order is the one kept).
//
// Strided lanes and the halves tree swap operands, which only a commutative
// function allows: an order gives the canonical result for every associative
// function only when its chunks of the others run in one lane (the chunk
// left to right). `striding` records that rule as data; `every_function`
// (strided lanes whatever the function) is illegal for a function that does
// not commute, and the oracle refuses it before comparing anything
// (oracle/order_judge.h). Only the seeded fault `strided_lanes_any_function`
// declares it.
//
// Exactly associative and commutative combiners (integer wrapping + * min
// max band bor bxor) give bitwise the same result in every order, so an
// engine may run those in any order it likes; the declaration matters for
// everything else (floats, tuples, user functions).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/types.h"

namespace strata {

// Which functions a chunk folds in strided lanes (the others: one lane).
enum class Striding : uint8_t {
  commutative,    // the functions core/combiner.h proves commutative: legal
  every_function, // every function: illegal unless each one commutes
};

struct ReductionOrder {
  // 0: never chunked (canonical).
  int64_t fold_chunked_from = 0;
  int64_t fold_chunk = 0;
  int64_t scan_chunked_from = 0;
  int64_t scan_chunk = 0;
  // Bytes of accumulators per chunk: fold_lanes() lanes share them.
  int lane_bytes = 128;
  Striding striding = Striding::commutative;

  static ReductionOrder canonical() { return {}; }
  static ReductionOrder blocked() { return {32768, 16384, 65536, 16384, 128}; }
  // The blocked order with tiny chunks (folds from 3 elements in chunks of 4,
  // scans from 3 in chunks of 3, 16 bytes of lanes: two i64 lanes, four f32):
  // what the tests and the fuzzer run engines with, so that programs of a few
  // elements go through every part of the tree.
  static ReductionOrder small() { return {3, 4, 3, 3, 16}; }

  bool fold_chunked(int64_t n) const { return fold_chunked_from > 0 && n >= fold_chunked_from; }
  bool scan_chunked(int64_t n) const { return scan_chunked_from > 0 && n >= scan_chunked_from; }
  bool is_canonical() const { return fold_chunked_from == 0 && scan_chunked_from == 0; }

  // "canonical", or "blocked(fold >= 32768 in chunks of 16384, scan >= 65536 in chunks of
  // 16384, 128-byte lanes)" (", strided for every function" with that striding).
  std::string describe() const;

  // The five numbers, "32768,16384,65536,16384,128", as bundles record them,
  // and ",strided-all" after them with Striding::every_function.
  std::string spec() const;
  // "canonical", "blocked", "small" or what spec() writes; Error(Usage)
  // naming `what` otherwise.
  static ReductionOrder parse(const std::string& text, const std::string& what);

  friend bool operator==(const ReductionOrder&, const ReductionOrder&) = default;
};

// Strided lanes of a chunk for element type `elem`: the largest power of two
// L with L * bytes(elem) <= lane_bytes, at least 1 (f32: 32, f64: 16, i8: 128,
// (tuple f32 f32): 16, (tuple i64 f64 f64): 4). A reduction's lanes also
// depend on its function: chunk_lanes (core/combiner.h) is what runs.
int fold_lanes(const ReductionOrder& order, const Type& elem);

} // namespace strata
