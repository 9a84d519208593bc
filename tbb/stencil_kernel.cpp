// stencil: every element from its window, in parallel batches. Batches whose
// windows all lie inside the array run code compiled without boundary
// handling; the others (near the border) run the code that applies it.
#include "tbb/kernels.h"

namespace strata::tbbe {
namespace {

// Whether every element start..start+count-1 of `sh` has its whole window inside.
bool interior(const Shape& sh, const std::vector<int64_t>& window, int64_t start, int count) {
  Index first = from_linear(sh, start), last = from_linear(sh, start + count - 1);
  for (size_t k = 0; k < sh.size(); ++k) {
    int64_t r = window[k] / 2;
    // Consecutive positions cover whole rows in the inner dimensions unless
    // the batch stays within one row of the innermost dimension.
    bool same_outer = true;
    for (size_t j = 0; j < k; ++j)
      same_outer = same_outer && first[j] == last[j];
    int64_t lo = same_outer ? first[k] : 0, hi = same_outer ? last[k] : sh[k] - 1;
    if (lo - r < 0 || hi + r >= sh[k]) return false;
  }
  return true;
}

} // namespace

void run_stencil(Runtime& rt, const Kernel& k, const kn::Stencil& s) {
  const Array& in = rt.get(s.input);
  const Shape& sh = in.shape();
  const ScalarFunction& inner = rt.functions.stencil(s.f, true);
  const ScalarFunction& border = rt.functions.stencil(s.f, false);
  Array out = Array::allocate(rt.graph.arrays[size_t(k.outputs[0])].type.elem(), sh);
  int64_t batches = (out.size() + kBatch - 1) / kBatch;
  parallel_ranges(batches, kBatchesPerTask, [&](int64_t begin, int64_t end) {
    Frame fi(inner.registers(), rt.table), fb(border.registers(), rt.table);
    inner.prepare(fi);
    border.prepare(fb);
    for (int64_t b = begin; b < end; ++b) {
      int64_t start = b * kBatch;
      int count = int(std::min<int64_t>(kBatch, out.size() - start));
      bool inside = interior(sh, s.window, start, count);
      const ScalarFunction& fn = inside ? inner : border;
      Frame& frame = inside ? fi : fb;
      fill_indices(frame, fn.params()[0].regs, sh, start, count);
      run_lanes_in_order(fn, frame, count);
      store_lanes(frame, fn.result().regs, out, start, count);
    }
  });
  rt.set(k.outputs[0], std::move(out));
}

} // namespace strata::tbbe
