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

// Rows [r.lo, r.hi) of `full` (rank >= 1), sharing its storage.
Array row_block(const Array& full, Rows r);
// The leaves' bytes, one after the other, and back.
Bytes pack(const Array& a);
Array unpack(const Type& elem, const Shape& shape, const Bytes& b);
// The array of `global` shape whose rows rank s holds in parts[s] (pack of
// its block of block_rows(global[0], parts.size(), s)).
Array assemble(const Type& elem, const Shape& global, const std::vector<Bytes>& parts);
// The array of `shape` whose rows rows[i] are in parts[i] (packed).
Array assemble_rows(const Type& elem, const Shape& shape, const std::vector<Bytes>& parts,
                    const std::vector<Rows>& rows);
// The first elements of `a` read as an array of `shape` (row-major; no more
// elements than `a` has), sharing its storage.
Array view_as(const Array& a, const Shape& shape);

} // namespace strata::mpi
