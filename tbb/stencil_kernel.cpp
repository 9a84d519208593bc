// stencil: every element from its window, in parallel batches. Each batch is
// cut into runs of consecutive elements that are either all interior (the
// whole window inside the array: code compiled without boundary handling) or
// all border (code that applies the boundary). The cut is made per row of the
// innermost dimension, so a batch that starts a row runs its first few
// elements as border and the rest as interior: no element of the interior
// pays for a boundary test, and no element pays for an interior test.
#include "tbb/kernels.h"

namespace strata::tbbe {
namespace {

struct Run {
  int64_t end; // the run is [position, end)
  bool inside;
};

// The run of elements starting at linear position `p` (ending at `limit` at most).
Run run_at(const Shape& sh, const std::vector<int64_t>& window, int64_t p, int64_t limit) {
  size_t rank = sh.size();
  if (rank == 0) return Run{limit, true};
  int64_t n = sh.back(), r = window.back() / 2;
  int64_t row = p / n, col = p % n;
  int64_t row_start = row * n;
  bool outer_inside = true;
  for (size_t k = rank - 1, rest = size_t(row); k-- > 0;) { // outer dims, innermost first
    int64_t i = int64_t(rest % size_t(sh[k]));
    rest /= size_t(sh[k]);
    int64_t rk = window[k] / 2;
    outer_inside = outer_inside && i - rk >= 0 && i + rk < sh[k];
  }
  int64_t lo = r, hi = n - r; // interior columns [lo, hi)
  Run run{row_start + n, false};
  if (outer_inside && lo < hi) {
    if (col < lo)
      run.end = row_start + lo;
    else if (col < hi)
      run = Run{row_start + hi, true};
  }
  run.end = std::min(run.end, limit);
  return run;
}

} // namespace

void run_stencil(Runtime& rt, const Kernel& k, const kn::Stencil& s) {
  const Array& in = rt.get(s.input);
  const Shape& sh = in.shape();
  const ScalarFunction& inner = rt.functions.stencil(s.f, true);
  const ScalarFunction& border = rt.functions.stencil(s.f, false);
  Array out = rt.allocate(k.outputs[0], rt.graph.arrays[size_t(k.outputs[0])].type.elem(), sh);
  int64_t batches = (out.size() + kBatch - 1) / kBatch;
  parallel_ranges(batches, kBatchesPerTask, [&](int64_t begin, int64_t end) {
    int lanes = int(std::min<int64_t>(kBatch, out.size()));
    Frame fi(inner.registers(), rt.table, lanes), fb(border.registers(), rt.table, lanes);
    inner.prepare(fi);
    border.prepare(fb);
    for (int64_t b = begin; b < end; ++b) {
      int64_t stop = std::min<int64_t>((b + 1) * kBatch, out.size());
      for (int64_t p = b * kBatch; p < stop;) {
        Run run = run_at(sh, s.window, p, stop);
        const ScalarFunction& fn = run.inside ? inner : border;
        Frame& frame = run.inside ? fi : fb;
        int count = int(run.end - p);
        write_in_place(fn, frame, out, p);
        run_batch(fn, frame, sh, p, count);
        store_lanes(frame, fn.result().regs, out, p, count);
        p = run.end;
      }
    }
  });
  rt.set(k.outputs[0], std::move(out));
}

} // namespace strata::tbbe
