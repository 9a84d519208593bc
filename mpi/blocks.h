// Block distribution along the outermost dimension (docs/mpi.md): rank r of
// P holds rows [lo, hi) of an array of n rows, the first n % P ranks one row
// more than the others. Arrays are moved between ranks as their leaves'
// bytes, leaf after leaf.
#pragma once

#include <cstdint>
#include <vector>

#include "core/array.h"
#include "mpi/comm.h"

namespace strata::mpi {

struct Rows {
  int64_t lo = 0, hi = 0;
  int64_t count() const { return hi - lo; }
};
Rows block_rows(int64_t n, int ranks, int rank);

// The bytes of an array of `elem` and shape `s`, every leaf.
size_t bytes_of(const Type& elem, const Shape& s);

// An array as a rank holds it.
struct Held {
  Array local; // the whole array, or this rank's rows of it
  bool block = false;
  Shape global; // the whole array's shape
};
// Whether an array is held in blocks on `ranks` ranks: rank >= 1 and at
// least `min_bytes` (MpiOptions::min_block_bytes), on more than one rank.
bool held_in_blocks(const Type& elem, const Shape& shape, int ranks, int64_t min_bytes);
// `a` as rank `rank` of `ranks` holds it (its rows, a view, when in blocks).
Held hold(const Array& a, int ranks, int rank, int64_t min_bytes);

// Rows [r.lo, r.hi) of `full` (rank >= 1), sharing its storage.
Array row_block(const Array& full, Rows r);
// The leaves' bytes, one after the other, and back.
Bytes pack(const Array& a);
Array unpack(const Type& elem, const Shape& shape, const Bytes& b);
// 64-bit integers as bytes, and back.
Bytes pack_i64s(const std::vector<int64_t>& v);
std::vector<int64_t> unpack_i64s(const Bytes& b);
// The array of `global` shape whose rows rank s holds in parts[s] (pack of
// its block of block_rows(global[0], parts.size(), s)).
Array assemble(const Type& elem, const Shape& global, const std::vector<Bytes>& parts);
// The array of `shape` whose rows rows[i] are in parts[i] (packed).
Array assemble_rows(const Type& elem, const Shape& shape, const std::vector<Bytes>& parts,
                    const std::vector<Rows>& rows);
// The elements at the linear positions `at` of `a`, in that order, as an
// array of rank 1.
Array select(const Array& a, const std::vector<int64_t>& at);
// Copies elements [from_at, from_at + n) of `from` to [to_at, to_at + n)
// of `to` (the same element type; linear positions), leaf by leaf.
void copy_elements(const Array& from, int64_t from_at, const Array& to, int64_t to_at, int64_t n);
// The elements of the rank-1 array `a` in reverse order.
Array reversed(const Array& a);
// The rank that holds row `row` of `n` rows on `ranks` ranks (block_rows).
int owner_of_row(int64_t n, int ranks, int64_t row);
// The first elements of `a` read as an array of `shape` (row-major; no more
// elements than `a` has), sharing its storage.
Array view_as(const Array& a, const Shape& shape);

} // namespace strata::mpi
