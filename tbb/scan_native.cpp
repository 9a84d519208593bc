#include "tbb/scan_native.h"

#include "core/scan_layout.h"
#include "core/semantics.h"
#include "parallel/native_ops.h"
#include "tbb/kernels.h"

namespace strata::tbbe {

using parallel::Op;
using parallel::with_op;

namespace {

using ac::ScanKind;

// Scans scan-order positions [q0, q0+len) of `row` from `carry` (none: the
// first element starts), writing outputs; returns the accumulator after.
template <class T, class O>
T scan_chunk(Runtime& rt, const NativeScan& s, int64_t row, int64_t q0, int64_t len,
             std::optional<T> carry, O op, T* out) {
  const ScalarFunction& elem = rt.functions.of(*s.elem);
  Frame ef(elem.registers(), rt.table, int(std::min<int64_t>(kBatch, len)));
  elem.prepare(ef);
  bool has = carry.has_value();
  T acc = has ? *carry : T{};
  T* o = out + row * s.m;
  for (int64_t b = 0; b < len; b += kBatch) {
    int count = int(std::min<int64_t>(kBatch, len - b));
    int64_t q = q0 + b; // scan order of the batch's first element
    // The batch's elements are contiguous in the row: [lo, lo+count).
    int64_t lo = s.right ? s.n - q - count : q;
    run_batch(elem, ef, s.shape, row * s.n + lo, count);
    const T* r = ef.reg<T>(elem.result().regs[0]); // may point into an array: per batch
    int k = 0;
    if (!has) { // the row's first element starts the scan
      acc = r[s.right ? count - 1 : 0];
      has = true;
      if (int64_t pos = scan_output_after(s.kind, s.n, q); pos >= 0) o[pos] = sem::canonical(acc);
      k = 1;
    }
    // Typed loops without a per-element test: left scans write position
    // q + shift (scanl' skips the row's last), right scans n-1-q = lo+count-1-k.
    if (s.right) {
      for (; k < count; ++k) {
        acc = op(acc, r[count - 1 - k]);
        o[lo + count - 1 - k] = sem::canonical(acc); // one NaN
      }
    } else {
      int64_t shift = s.kind == ScanKind::Scanl1 ? 0 : 1;
      int end = count;
      if (s.kind == ScanKind::ScanlPrime && q + count == s.n) --end; // the total only
      for (; k < end; ++k) {
        acc = op(acc, r[k]);
        o[q + k + shift] = sem::canonical(acc); // one NaN
      }
      for (; k < count; ++k)
        acc = op(acc, r[k]);
    }
  }
  return acc;
}

template <class T, class O>
std::vector<Scalar> scan_rows(Runtime& rt, const NativeScan& s, Array& out, O op) {
  int64_t rows = shape_size(Shape(s.shape.begin(), s.shape.end() - 1));
  int64_t chunks = (s.n + s.chunk - 1) / s.chunk;
  int64_t units = rows * chunks;
  auto chunk_len = [&](int64_t c) { return std::min(s.chunk, s.n - c * s.chunk); };
  // Phase 1: chunk totals (all but the last chunk of each row).
  std::vector<T> totals(size_t(units), T{});
  if (chunks > 1)
    parallel_ranges(units, 1, [&](int64_t begin, int64_t end) {
      for (int64_t u = begin; u < end; ++u) {
        int64_t row = u / chunks, c = u % chunks;
        // The last chunk's total is not needed, but with several rows its
        // errors must come before those of the next row's chunks.
        if (c == chunks - 1 && rows == 1) continue;
        int64_t len = chunk_len(c), q0 = c * s.chunk;
        int64_t lo = s.right ? s.n - q0 - len : q0;
        totals[size_t(u)] =
            fold_chunk_native(rt, *s.elem, s.shape, row * s.n + lo, len, s.op, s.right)[0]
                .template get<T>();
      }
    });
  // Phase 2: the value each chunk starts from, in order.
  std::vector<std::optional<T>> carry(static_cast<size_t>(units));
  for (int64_t row = 0; row < rows; ++row) {
    std::optional<T> c;
    if (s.seed) c = s.seed->get<T>();
    for (int64_t k = 0; k < chunks; ++k) {
      size_t u = size_t(row * chunks + k);
      carry[u] = c;
      if (k + 1 < chunks) c = c ? op(*c, totals[u]) : totals[u];
    }
  }
  // Phase 3: scan every chunk from its starting value.
  std::vector<T> finals(static_cast<size_t>(rows));
  T* o = out.leaf_data<T>(0);
  parallel_ranges(units, 1, [&](int64_t begin, int64_t end) {
    for (int64_t u = begin; u < end; ++u) {
      int64_t row = u / chunks, c = u % chunks;
      T last = scan_chunk<T>(rt, s, row, c * s.chunk, chunk_len(c), carry[size_t(u)], op, o);
      if (c == chunks - 1) finals[size_t(row)] = last;
    }
  });
  std::vector<Scalar> result;
  for (T v : finals)
    result.push_back(Scalar::make<T>(v));
  return result;
}

} // namespace

std::vector<Scalar> scan_native(Runtime& rt, const NativeScan& s, Array& out) {
  return dispatch_kind(s.op.type, [&](auto tag) -> std::vector<Scalar> {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>) {
      throw Error(ErrorKind::Type, "tbb: no native scan on bool (internal error)");
    } else {
      std::vector<Scalar> r;
      with_op<T>(s.op.op, [&](auto o) { r = scan_rows<T>(rt, s, out, o); });
      return r;
    }
  });
}

} // namespace strata::tbbe
