// The host/generated-code contract of each jit kernel kind's aux slots (the
// `aux` argument of every entry point, jit/abi.h), written once and used by
// both sides: the code generators (emit_* in jit/*_kernel.cpp) and the host
// drivers (run_* in the same files). Every entry that takes a shape reads it
// from slots [0, R), R the rank of the kernel's input; L is the number of
// leaves of its element type (one slot each, jit/abi.h Slot).
#pragma once

#include <cstddef>

#include "jit/abi.h"

namespace strata::jit::slots {

// fold: the rows entry reads the seed (L) at seed(R) (fold1: none); the
// chunk entry writes a chunk's total (L) at total(R).
struct Fold {
  static constexpr int seed(int rank) { return rank; }
  static constexpr int total(int rank) { return rank; }
  static constexpr size_t count(int rank, size_t leaves) { return size_t(rank) + leaves; }
};

// foldseg: pointers to the segments' offsets and lengths (i64), the number
// of segments, the seed (L).
struct FoldSeg {
  static constexpr int offsets(int rank) { return rank; }
  static constexpr int lengths(int rank) { return rank + 1; }
  static constexpr int segments(int rank) { return rank + 2; }
  static constexpr int seed(int rank) { return rank + 3; }
  static constexpr size_t count(int rank, size_t leaves) { return size_t(rank) + 3 + leaves; }
};

// scan, the main entry (positions [begin, end) of one row): the row, whether
// to write the results (0/1), whether an accumulator is present (a bool in
// the slot's low byte, read and written), the accumulator (L, read at the
// start and written at the end). The chunk entry (a chunk's total) reads the
// row and writes the total (L) at chunk_total(R).
struct Scan {
  static constexpr int row(int rank) { return rank; }
  static constexpr int write(int rank) { return rank + 1; }
  static constexpr int has_accumulator(int rank) { return rank + 2; }
  static constexpr int accumulator(int rank) { return rank + 3; }
  static constexpr size_t count(int rank, size_t leaves) { return size_t(rank) + 3 + leaves; }
  static constexpr int chunk_total(int rank) { return rank + 1; }
  static constexpr size_t chunk_count(int rank, size_t leaves) { return size_t(rank) + 1 + leaves; }
};

// The combine entries of fold and scan (no shape): acc := f(acc, operand),
// or f(operand, acc) swapped, each L slots.
struct Combine {
  static constexpr int accumulator = 0;
  static constexpr int operand(size_t leaves) { return int(leaves); }
  static constexpr size_t count(size_t leaves) { return 2 * leaves; }
};

// permute (no shape): a pointer to the i64 buffer of every source
// position's linear target (-1: ignored), written by the targets entry and
// read by the combining one.
struct Permute {
  static constexpr int targets = 0;
  static constexpr size_t count = 1;
};

// permute's chunk entry (an operation every order treats alike,
// parallel::PermuteBins): a pointer to the bins source positions [begin, end)
// combine into (as many elements as the result, of its type).
struct PermuteBins {
  static constexpr int bins(int rank) { return rank; }
  static constexpr size_t count(int rank) { return size_t(rank) + 1; }
};

static_assert(sizeof(Slot) == 8, "a slot holds an i64, an f64 or a pointer");

} // namespace strata::jit::slots
