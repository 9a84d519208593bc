// Folds and scans of one row under a declared association order
// (core/reduction_order.h), written as plainly as the rest of the
// interpreter: `x(q)` is the row's element at scan-order position q and
// `f(acc, x)` combines (for right scans the interpreter passes the swapped
// function). In the canonical order these are the left-to-right loops of
// docs/language.md; in the blocked order they are the engines' tree, step by step.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/reduction_order.h"

namespace strata {

// One chunk of m elements from position `start`: lane k folds elements k,
// k+L, k+2L, ... in order; then the lanes fold by halves, an odd middle lane
// waiting a level.
template <class V, class X, class F>
V chunk_total(int64_t start, int64_t m, int lanes, X& x, F& f) {
  std::vector<V> lane;
  for (int64_t i = 0; i < m; ++i) {
    if (i < lanes)
      lane.push_back(x(start + i));
    else
      lane[size_t(i % lanes)] = f(std::move(lane[size_t(i % lanes)]), x(start + i));
  }
  for (size_t count = lane.size(); count > 1;) {
    size_t half = count / 2, rest = count - half;
    for (size_t k = 0; k < half; ++k)
      lane[k] = f(std::move(lane[k]), lane[rest + k]);
    count = rest;
  }
  return std::move(lane[0]);
}

// A chunked row is reduced in phases, each over every row of the operation
// before the next (the engines run each phase's units in parallel and report
// the first failing unit, so this is also which error comes first):
//  1. the totals of the row's chunks (row_chunk_totals), rows in order;
//  2. a fold combines each row's totals from its seed (fold_totals); a scan
//     turns them into the carry each chunk starts from (scan_carries);
//  3. a scan scans every chunk from its carry (scan_chunks).
// fold_row and scan_row run the phases for one row.

// The totals of the first `count` chunks of `chunk` elements of a row of n.
template <class V, class X, class F>
std::vector<V> row_chunk_totals(int64_t n, int64_t chunk, int64_t count, int lanes, X& x, F& f) {
  std::vector<V> totals;
  for (int64_t k = 0; k < count; ++k)
    totals.push_back(chunk_total<V>(k * chunk, std::min(chunk, n - k * chunk), lanes, x, f));
  return totals;
}

// A fold's row from `acc` (the seed; empty for fold1) and its chunk totals.
template <class V, class F> V fold_totals(std::optional<V> acc, std::vector<V> totals, F& f) {
  size_t k = 0;
  V row = acc ? std::move(*acc) : std::move(totals[k++]);
  for (; k < totals.size(); ++k)
    row = f(std::move(row), std::move(totals[k]));
  return row;
}

// The value each chunk of a scanned row starts from: the seed (empty for
// scanl1, scanr1), then carry(j+1) = f(carry j, total j).
template <class V, class F>
std::vector<std::optional<V>> scan_carries(std::optional<V> seed, std::vector<V> totals, F& f) {
  std::vector<std::optional<V>> carry{std::move(seed)};
  for (V& t : totals) {
    const std::optional<V>& before = carry.back();
    carry.push_back(before ? f(V(*before), std::move(t)) : std::move(t));
  }
  return carry;
}

// A row of n elements scanned in chunks of `chunk` from their carries:
// `out(q, acc)` receives the accumulator after scan-order position q.
// Returns the last accumulator (the first carry when n is 0).
template <class V, class X, class F, class Out>
std::optional<V> scan_chunks(int64_t n, int64_t chunk, std::vector<std::optional<V>> carry, X& x,
                             F& f, Out& out) {
  std::optional<V> acc = carry[0];
  for (int64_t q = 0; q < n; ++q) {
    if (q % chunk == 0) acc = std::move(carry[size_t(q / chunk)]);
    acc = acc ? f(std::move(*acc), x(q)) : x(q);
    out(q, *acc);
  }
  return acc;
}

// The number of chunks a fold cuts a row of n into (0: not chunked), and
// the number whose totals a scan needs (all but the last; 0: not chunked).
inline int64_t fold_chunks(const ReductionOrder& order, int64_t n) {
  return order.fold_chunked(n) ? (n + order.fold_chunk - 1) / order.fold_chunk : 0;
}
inline int64_t scan_totals(const ReductionOrder& order, int64_t n) {
  return order.scan_chunked(n) ? (n + order.scan_chunk - 1) / order.scan_chunk - 1 : 0;
}

// A row of n elements folded from `acc` (the seed; empty for fold1, n >= 1).
template <class V, class X, class F>
V fold_row(const ReductionOrder& order, int lanes, int64_t n, std::optional<V> acc, X x, F f) {
  if (!order.fold_chunked(n)) {
    for (int64_t q = 0; q < n; ++q)
      acc = acc ? f(std::move(*acc), x(q)) : x(q);
    return std::move(*acc);
  }
  return fold_totals<V>(
      std::move(acc), row_chunk_totals<V>(n, order.fold_chunk, fold_chunks(order, n), lanes, x, f),
      f);
}

// A row of n elements scanned from `seed` (empty for scanl1, scanr1):
// `out(q, acc)` receives the accumulator after scan-order position q. Returns
// the last accumulator (the seed when n is 0).
template <class V, class X, class F, class Out>
std::optional<V> scan_row(const ReductionOrder& order, int lanes, int64_t n, std::optional<V> seed,
                          X x, F f, Out out) {
  int64_t chunk = order.scan_chunked(n) ? order.scan_chunk : std::max<int64_t>(n, 1);
  std::vector<V> totals = row_chunk_totals<V>(n, chunk, scan_totals(order, n), lanes, x, f);
  return scan_chunks<V>(n, chunk, scan_carries<V>(std::move(seed), std::move(totals), f), x, f,
                        out);
}

} // namespace strata
