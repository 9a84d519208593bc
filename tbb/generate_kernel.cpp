// generate: a delayed array made manifest, batch by batch in parallel.
#include "tbb/kernels.h"

namespace strata::tbbe {

namespace {

void compute(Runtime& rt, const Delayed& d, const Shape& sh, Array& out) {
  const ScalarFunction& fn = rt.functions.of(d.elem);
  int64_t batches = (out.size() + kBatch - 1) / kBatch;
  parallel_ranges(batches, kBatchesPerTask, [&](int64_t begin, int64_t end) {
    Frame frame(fn.registers(), rt.table, int(std::min<int64_t>(kBatch, out.size())));
    fn.prepare(frame);
    for (int64_t b = begin; b < end; ++b) {
      int64_t start = b * kBatch;
      int count = int(std::min<int64_t>(kBatch, out.size() - start));
      write_in_place(fn, frame, out, start);
      run_batch(fn, frame, sh, start, count);
      store_lanes(frame, fn.result().regs, out, start, count);
    }
  });
}

} // namespace

Array materialise(Runtime& rt, const Delayed& d, ArrayId id) {
  Shape sh = rt.prepare(d);
  Array out = rt.allocate(id, d.type.elem(), sh);
  compute(rt, d, sh, out);
  return out;
}

Array materialise_scratch(Runtime& rt, const Delayed& d, int kernel_id) {
  Shape sh = rt.prepare(d);
  Array out = rt.scratch(kernel_id, d.type.elem(), sh);
  compute(rt, d, sh, out);
  return out;
}

void run_generate(Runtime& rt, const Kernel& k, const kn::Generate& g) {
  rt.set(k.outputs[0], materialise(rt, g.body, k.outputs[0]));
}

} // namespace strata::tbbe
