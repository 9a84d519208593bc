#include "mpi/blocks.h"

#include <algorithm>
#include <cstring>

#include "core/error.h"

namespace strata::mpi {
namespace {

size_t row_bytes(const Shape& shape, ScalarKind k) {
  Shape one = shape;
  one[0] = 1;
  return Array::leaf_bytes(one, k);
}

} // namespace

Rows block_rows(int64_t n, int ranks, int rank) {
  int64_t q = n / ranks, m = n % ranks;
  int64_t lo = q * rank + std::min<int64_t>(rank, m);
  return Rows{lo, lo + q + (rank < m ? 1 : 0)};
}

size_t bytes_of(const Type& elem, const Shape& s) {
  size_t b = 0;
  for (ScalarKind k : elem.leaves())
    b += Array::leaf_bytes(s, k);
  return b;
}

bool held_in_blocks(const Type& elem, const Shape& shape, int ranks, int64_t min_bytes) {
  return ranks > 1 && !shape.empty() && bytes_of(elem, shape) >= size_t(min_bytes);
}

Held hold(const Array& a, int ranks, int rank, int64_t min_bytes) {
  if (held_in_blocks(a.elem_type(), a.shape(), ranks, min_bytes))
    return Held{row_block(a, block_rows(a.shape()[0], ranks, rank)), true, a.shape()};
  return Held{a, false, a.shape()};
}

Array row_block(const Array& full, Rows r) {
  Shape shape = full.shape();
  shape[0] = r.count();
  std::vector<Buffer> leaves;
  auto owner = std::make_shared<Array>(full);
  for (size_t l = 0; l < full.num_leaves(); ++l) {
    size_t row = row_bytes(full.shape(), full.leaf_kind(l));
    leaves.push_back(
        Buffer::borrow(full.leaf(l).data() + size_t(r.lo) * row, size_t(r.count()) * row, owner));
  }
  return Array::from_leaves(full.elem_type(), std::move(shape), std::move(leaves));
}

Bytes pack(const Array& a) {
  Bytes out;
  for (size_t l = 0; l < a.num_leaves(); ++l) {
    size_t bytes = Array::leaf_bytes(a.shape(), a.leaf_kind(l));
    const std::byte* p = a.leaf(l).data();
    out.insert(out.end(), p, p + bytes);
  }
  return out;
}

Array unpack(const Type& elem, const Shape& shape, const Bytes& b) {
  Array out = Array::allocate(elem, shape, false);
  size_t offset = 0;
  for (size_t l = 0; l < out.num_leaves(); ++l) {
    size_t bytes = Array::leaf_bytes(shape, out.leaf_kind(l));
    if (offset + bytes > b.size())
      throw Error(ErrorKind::Resource, "mpi: an array of " + std::to_string(b.size()) +
                                           " bytes is shorter than its shape");
    if (bytes) std::memcpy(out.leaf(l).data(), b.data() + offset, bytes);
    offset += bytes;
  }
  return out;
}

Array assemble(const Type& elem, const Shape& global, const std::vector<Bytes>& parts) {
  std::vector<Rows> rows;
  for (size_t s = 0; s < parts.size(); ++s)
    rows.push_back(block_rows(global[0], int(parts.size()), int(s)));
  return assemble_rows(elem, global, parts, rows);
}

Array assemble_rows(const Type& elem, const Shape& shape, const std::vector<Bytes>& parts,
                    const std::vector<Rows>& rows) {
  Array out = Array::allocate(elem, shape, false);
  for (size_t s = 0; s < parts.size(); ++s) {
    Rows r = rows[s];
    size_t offset = 0;
    for (size_t l = 0; l < out.num_leaves(); ++l) {
      size_t row = row_bytes(shape, out.leaf_kind(l));
      size_t bytes = size_t(r.count()) * row;
      if (offset + bytes > parts[s].size())
        throw Error(ErrorKind::Resource, "mpi: a part of " + std::to_string(parts[s].size()) +
                                             " bytes is shorter than its rows");
      if (bytes)
        std::memcpy(out.leaf(l).data() + size_t(r.lo) * row, parts[s].data() + offset, bytes);
      offset += bytes;
    }
  }
  return out;
}

Array select(const Array& a, const std::vector<int64_t>& at) {
  Array out = Array::allocate(a.elem_type(), Shape{int64_t(at.size())}, false);
  for (size_t l = 0; l < a.num_leaves(); ++l) {
    size_t sz = scalar_size(a.leaf_kind(l));
    const std::byte* from = a.leaf(l).data();
    std::byte* to = out.leaf(l).data();
    for (size_t j = 0; j < at.size(); ++j)
      std::memcpy(to + j * sz, from + size_t(at[j]) * sz, sz);
  }
  return out;
}

void copy_elements(const Array& from, int64_t from_at, const Array& to, int64_t to_at, int64_t n) {
  if (n <= 0) return;
  for (size_t l = 0; l < from.num_leaves(); ++l) {
    size_t sz = scalar_size(from.leaf_kind(l));
    std::memcpy(to.leaf(l).data() + size_t(to_at) * sz, from.leaf(l).data() + size_t(from_at) * sz,
                size_t(n) * sz);
  }
}

Array reversed(const Array& a) {
  std::vector<int64_t> at(static_cast<size_t>(a.size()));
  for (int64_t i = 0; i < a.size(); ++i)
    at[size_t(i)] = a.size() - 1 - i;
  return select(a, at);
}

int owner_of_row(int64_t n, int ranks, int64_t row) {
  int64_t q = n / ranks, m = n % ranks;
  // The first m ranks hold q + 1 rows each, the others q.
  if (row < m * (q + 1)) return int(row / (q + 1));
  return int(m + (row - m * (q + 1)) / q);
}

Array view_as(const Array& a, const Shape& shape) {
  auto owner = std::make_shared<Array>(a);
  std::vector<Buffer> leaves;
  for (size_t l = 0; l < a.num_leaves(); ++l)
    leaves.push_back(
        Buffer::borrow(a.leaf(l).data(), Array::leaf_bytes(shape, a.leaf_kind(l)), owner));
  return Array::from_leaves(a.elem_type(), shape, std::move(leaves));
}

Bytes pack_i64s(const std::vector<int64_t>& v) {
  const auto* p = reinterpret_cast<const std::byte*>(v.data());
  return Bytes(p, p + v.size() * sizeof(int64_t));
}

std::vector<int64_t> unpack_i64s(const Bytes& b) {
  std::vector<int64_t> v(b.size() / sizeof(int64_t));
  std::memcpy(v.data(), b.data(), v.size() * sizeof(int64_t));
  return v;
}

} // namespace strata::mpi
