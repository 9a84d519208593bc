// foldseg: fold every segment of every row, one lane per (row, segment),
// each lane folding its segment left to right from the seed, as the
// interpreter does; kBatch segments per batch, batches in parallel. This is
// foldseg's order in every declared association order
// (core/reduction_order.h), and it depends on the data only, never on the
// threads.
#include "core/runtime_errors.h"
#include "tbb/combiner.h"
#include "tbb/kernels.h"

namespace strata::tbbe {

void run_foldseg(Runtime& rt, const Kernel& k, const kn::FoldSeg& f) {
  Shape sh = rt.prepare(f.input);
  const Array& segs = rt.get(f.segs);
  const SrcLoc& loc = k.ops.back().loc;
  int64_t n = sh.back();
  const int64_t* lengths = segs.leaf_data<int64_t>(0);
  int64_t nsegs = segs.size();
  std::vector<int64_t> offset = foldseg_segment_starts(lengths, nsegs, sh, loc);
  Shape outer(sh.begin(), sh.end() - 1);
  int64_t rows = shape_size(outer);
  Shape out_shape = outer;
  out_shape.push_back(nsegs);
  Array out = rt.allocate(k.outputs[0], f.input.type.elem(), out_shape);
  // The seed: only for a non-empty result, before any element (docs/language.md, Errors).
  Leaves seed = rows * nsegs > 0 ? rt.eval(*f.seed) : Leaves();
  const ScalarFunction& elem = rt.functions.of(f.input.elem);
  const ScalarFunction& combine = rt.functions.of(f.f);

  // Folds units first..first+count-1 (unit u = row u / nsegs, segment u % nsegs).
  auto fold_units = [&](int64_t first, int count) {
    Frame ef(elem.registers(), rt.table, count);
    elem.prepare(ef);
    Combiner c(combine, rt.table, true, count);
    c.fill_acc(seed, count);
    int64_t longest = 0;
    for (int lane = 0; lane < count; ++lane)
      longest = std::max(longest, lengths[(first + lane) % nsegs]);
    std::vector<uint16_t> lanes(static_cast<size_t>(count));
    for (int64_t q = 0; q < longest; ++q) {
      int active = 0;
      for (int lane = 0; lane < count; ++lane) {
        int64_t u = first + lane, seg = u % nsegs;
        if (q >= lengths[seg]) continue;
        lanes[size_t(active++)] = uint16_t(lane);
        int64_t pos = (u / nsegs) * n + offset[size_t(seg)] + q;
        const std::vector<int>& ix = elem.params()[0].regs; // row-major, no allocation
        for (size_t d = ix.size(); d-- > 1;) {
          ef.reg<int64_t>(ix[d])[lane] = pos % sh[d];
          pos /= sh[d];
        }
        ef.reg<int64_t>(ix[0])[lane] = pos;
      }
      Selection s{lanes.data(), active};
      elem.run(ef, s);
      copy_lanes(ef, elem.result().regs, c.frame(), c.x().regs, c.sizes(), count);
      c.step(s);
    }
    store_lanes(c.frame(), c.acc().regs, out, first, count);
  };

  int64_t units = rows * nsegs;
  int64_t batches = (units + kBatch - 1) / kBatch;
  parallel_ranges(batches, 1, [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) {
      int64_t first = b * kBatch;
      int count = int(std::min<int64_t>(kBatch, units - first));
      try {
        fold_units(first, count);
      } catch (const Error&) {
        for (int u = 0; u < count; ++u)
          fold_units(first + u, 1); // the first failing unit, in order
        throw;
      }
    }
  });
  rt.set(k.outputs[0], std::move(out));
}

} // namespace strata::tbbe
