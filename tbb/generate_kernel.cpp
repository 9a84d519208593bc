// generate: a delayed array made manifest, batch by batch in parallel.
#include "tbb/kernels.h"

namespace strata::tbbe {

Array materialise(Runtime& rt, const Delayed& d) {
  Shape sh = rt.prepare(d);
  Array out = Array::allocate(d.type.elem(), sh);
  const ScalarFunction& fn = rt.functions.of(d.elem);
  int64_t batches = (out.size() + kBatch - 1) / kBatch;
  parallel_ranges(batches, kBatchesPerTask, [&](int64_t begin, int64_t end) {
    Frame frame(fn.registers(), rt.table);
    fn.prepare(frame);
    for (int64_t b = begin; b < end; ++b) {
      int64_t start = b * kBatch;
      int count = int(std::min<int64_t>(kBatch, out.size() - start));
      fill_indices(frame, fn.params()[0].regs, sh, start, count);
      run_lanes_in_order(fn, frame, count);
      store_lanes(frame, fn.result().regs, out, start, count);
    }
  });
  return out;
}

void run_generate(Runtime& rt, const Kernel& k, const kn::Generate& g) {
  rt.set(k.outputs[0], materialise(rt, g.body));
}

} // namespace strata::tbbe
