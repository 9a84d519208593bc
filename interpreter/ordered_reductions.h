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

// A row of n elements folded from `acc` (the seed; empty for fold1, n >= 1).
template <class V, class X, class F>
V fold_row(const ReductionOrder& order, int lanes, int64_t n, std::optional<V> acc, X x, F f) {
  if (!order.fold_chunked(n)) {
    for (int64_t q = 0; q < n; ++q)
      acc = acc ? f(std::move(*acc), x(q)) : x(q);
    return std::move(*acc);
  }
  for (int64_t c = 0; c < n; c += order.fold_chunk) {
    V total = chunk_total<V>(c, std::min(order.fold_chunk, n - c), lanes, x, f);
    acc = acc ? f(std::move(*acc), std::move(total)) : std::move(total);
  }
  return std::move(*acc);
}

// A row of n elements scanned from `seed` (empty for scanl1, scanr1):
// `out(q, acc)` receives the accumulator after scan-order position q. Returns
// the last accumulator (the seed when n is 0).
template <class V, class X, class F, class Out>
std::optional<V> scan_row(const ReductionOrder& order, int lanes, int64_t n, std::optional<V> seed,
                          X x, F f, Out out) {
  int64_t chunk = order.scan_chunked(n) ? order.scan_chunk : std::max<int64_t>(n, 1);
  // The value each chunk starts from: the seed, then the carries.
  std::vector<std::optional<V>> carry{std::move(seed)};
  for (int64_t c = 0; c + chunk < n; c += chunk) {
    V total = chunk_total<V>(c, chunk, lanes, x, f);
    const std::optional<V>& before = carry.back();
    carry.push_back(before ? f(V(*before), std::move(total)) : std::move(total));
  }
  std::optional<V> acc = carry[0];
  for (int64_t q = 0; q < n; ++q) {
    if (q % chunk == 0) acc = std::move(carry[size_t(q / chunk)]);
    acc = acc ? f(std::move(*acc), x(q)) : x(q);
    out(q, *acc);
  }
  return acc;
}

} // namespace strata
