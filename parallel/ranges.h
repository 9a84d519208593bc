// Parallel ranges whose reported failure does not depend on scheduling:
// oneTBB helpers shared by the tbb and jit engines (neither owns them).
//
// The work over [0, n) is cut into chunks of `grain` indices, [c*grain,
// (c+1)*grain), run as oneTBB tasks. A chunk that fails records its failure;
// the failure of the lowest failing chunk is the one reported, and chunks
// after a known failure may be skipped. When chunks follow row-major order
// (every caller's), that is the failure of the first failing element in
// order, whatever ran first: errors are deterministic.
//
// A stop asked for from outside (core/interrupt.h) starts no further chunk
// and throws Interrupted once the running ones end.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <limits>
#include <mutex>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "core/interrupt.h"

namespace strata::parallel {

// body(begin, end, failure) runs a chunk and returns true when it failed,
// having set `failure`. Returns true when some chunk failed; `first` is then
// the lowest failing chunk's failure. One chunk runs on the caller's thread.
template <class Failure, class Body>
bool parallel_ranges(int64_t n, int64_t grain, Body&& body, Failure& first) {
  if (n <= 0) return false;
  throw_if_interrupted();
  grain = std::max<int64_t>(grain, 1);
  if (n <= grain) return body(int64_t(0), n, first);
  int64_t chunks = (n + grain - 1) / grain;
  std::atomic<int64_t> lowest{std::numeric_limits<int64_t>::max()};
  std::mutex mutex;
  tbb::parallel_for(
      tbb::blocked_range<int64_t>(0, chunks, 1),
      [&](const tbb::blocked_range<int64_t>& r) {
        for (int64_t c = r.begin(); c < r.end(); ++c) {
          if (c > lowest.load(std::memory_order_relaxed) || interrupt_requested()) return;
          Failure failure{};
          if (body(c * grain, std::min(n, (c + 1) * grain), failure)) {
            std::lock_guard lock(mutex);
            if (c < lowest.load()) {
              lowest = c;
              first = std::move(failure);
            }
            return;
          }
        }
      },
      tbb::simple_partitioner());
  throw_if_interrupted();
  return lowest.load() != std::numeric_limits<int64_t>::max();
}

// body(begin, end) over the chunks; if chunks throw, rethrows the exception
// of the lowest throwing chunk.
template <class Body> void parallel_ranges(int64_t n, int64_t grain, Body&& body) {
  std::exception_ptr first;
  auto run = [&](int64_t begin, int64_t end, std::exception_ptr& failure) {
    try {
      body(begin, end);
      return false;
    } catch (...) {
      failure = std::current_exception();
      return true;
    }
  };
  if (parallel_ranges(n, grain, run, first)) std::rethrow_exception(first);
}

} // namespace strata::parallel
