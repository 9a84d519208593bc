// permute: combine every source element into its target, in source order
// (permute's order in every declared association order,
// core/reduction_order.h).
//
// Combining functions that every order treats alike (parallel/permute_native.h:
// integer ops, bool and/or, new, old) run as typed loops, in parallel with
// private accumulators on large sources. The others (float ops, float
// min/max, tuples, user functions) follow the ordered path below.
// The defaults and the source values are computed in parallel batches, then
// the target indices (checked against the result's shape; `ignore` drops an
// element). Combining follows source order, as the interpreter does, but a
// batch of kBatch source elements is combined at once: its lanes are split
// into rounds so that no two lanes of a round share a target and every
// target sees its elements in source order; each round is one run of the
// combining function over its lanes.
#include <unordered_map>

#include "core/runtime_errors.h"
#include "parallel/permute_native.h"
#include "tbb/combiner.h"
#include "tbb/kernels.h"

namespace strata::tbbe {
namespace {

// The target position of every source element (-1: ignored).
parallel::Targets targets(Runtime& rt, const kn::Permute& p, const Kernel& k,
                          const Shape& src_shape, const Shape& dst_shape) {
  int64_t n = shape_size(src_shape);
  parallel::Targets out(static_cast<size_t>(n));
  const ScalarFunction& fn = rt.functions.of(p.target);
  const SrcLoc& loc = k.ops.back().loc;
  size_t rank = dst_shape.size();
  auto check = [&](Frame& f, int lane, int64_t i) {
    // No allocation per element: the index is checked and linearised in place.
    bool ignored = rank > 0, inside = true;
    int64_t linear = 0;
    for (size_t d = 0; d < rank; ++d) {
      int64_t x = f.reg<int64_t>(fn.result().regs[d])[lane];
      ignored = ignored && x == -1;
      inside = inside && x >= 0 && x < dst_shape[d];
      if (inside) linear = linear * dst_shape[d] + x;
    }
    if (ignored) {
      out[size_t(i)] = -1;
    } else if (!inside) {
      Index t;
      for (int reg : fn.result().regs)
        t.push_back(f.reg<int64_t>(reg)[lane]);
      throw permute_target_out_of_bounds(t, dst_shape, from_linear(src_shape, i), loc);
    } else {
      out[size_t(i)] = linear;
    }
  };
  int64_t batches = (n + kBatch - 1) / kBatch;
  parallel_ranges(batches, kBatchesPerTask, [&](int64_t begin, int64_t end) {
    Frame frame(fn.registers(), rt.table, int(std::min<int64_t>(kBatch, n)));
    fn.prepare(frame);
    for (int64_t b = begin; b < end; ++b) {
      int64_t start = b * kBatch;
      int count = int(std::min<int64_t>(kBatch, n - start));
      fill_indices(frame, fn.params()[0].regs, src_shape, start, count);
      try {
        fn.run(frame, Selection::dense(count));
        if (rank == 1) {
          // Typed: -1 (ignore) and 0..n-1 are both kept as they are; one
          // branch-free pass checks x in [-1, n-1] (see any_out_of_range).
          const int64_t* x = frame.reg<int64_t>(fn.result().regs[0]);
          int64_t* o = out.data() + start;
          int64_t last = dst_shape[0] - 1, bits = 0;
          for (int lane = 0; lane < count; ++lane) {
            o[lane] = x[lane];
            // Wrapping (unsigned) arithmetic: INT64_MAX + 1 must flag, not overflow.
            bits |= int64_t(uint64_t(x[lane]) + 1) | int64_t(uint64_t(last) - uint64_t(x[lane]));
          }
          if (bits >= 0) continue;
        }
        for (int lane = 0; lane < count; ++lane)
          check(frame, lane, start + lane);
      } catch (const Error&) {
        for (int lane = 0; lane < count; ++lane) { // the first failing element, in order
          uint16_t l = uint16_t(lane);
          fn.run(frame, Selection{&l, 1});
          check(frame, lane, start + lane);
        }
        throw;
      }
    }
  });
  return out;
}

} // namespace

void run_permute(Runtime& rt, const Kernel& k, const kn::Permute& p) {
  Array out = materialise(rt, p.defaults, k.outputs[0]);
  Array src = materialise_scratch(rt, p.source, k.id);
  parallel::Targets target = targets(rt, p, k, src.shape(), out.shape());

  if (std::optional<parallel::NativeCombine> native = parallel::recognise_combine(p.combine)) {
    parallel::permute_native(*native, src, target.data(), int64_t(target.size()), out);
    rt.recycle(k.id, std::move(src));
    rt.set(k.outputs[0], std::move(out));
    return;
  }

  // (combine new old): the source element first, the value already there second.
  const ScalarFunction& f = rt.functions.of(p.combine);
  Frame fr(f.registers(), rt.table);
  f.prepare(fr);
  const Operand& new_v = f.params()[0];
  const Operand& old_v = f.params()[1];
  std::vector<ScalarKind> kinds = out.elem_type().leaves();
  auto load = [&](const Array& a, const Operand& op, int64_t pos, int lane) {
    for (size_t l = 0; l < kinds.size(); ++l) {
      size_t size = scalar_size(kinds[l]);
      std::memcpy(fr.reg<std::byte>(op.regs[l]) + size_t(lane) * size,
                  a.leaf(l).data() + size_t(pos) * size, size);
    }
  };
  std::unordered_map<int64_t, int> seen;
  std::vector<std::vector<uint16_t>> rounds;
  for (int64_t start = 0; start < src.size(); start += kBatch) {
    int count = int(std::min<int64_t>(kBatch, src.size() - start));
    seen.clear();
    for (auto& r : rounds)
      r.clear();
    for (int lane = 0; lane < count; ++lane) {
      int64_t t = target[size_t(start + lane)];
      if (t < 0) continue;
      int round = seen[t]++;
      if (size_t(round) >= rounds.size()) rounds.resize(size_t(round) + 1);
      rounds[size_t(round)].push_back(uint16_t(lane));
    }
    auto combine = [&](const Selection& sel) {
      for_each_lane(sel, [&](int lane) {
        load(src, new_v, start + lane, lane);
        load(out, old_v, target[size_t(start + lane)], lane);
      });
      f.run(fr, sel);
      for_each_lane(sel, [&](int lane) {
        int64_t t = target[size_t(start + lane)];
        for (size_t l = 0; l < kinds.size(); ++l) {
          size_t size = scalar_size(kinds[l]);
          std::memcpy(out.leaf(l).data() + size_t(t) * size,
                      fr.reg<std::byte>(f.result().regs[l]) + size_t(lane) * size, size);
        }
      });
    };
    // Keep the old values of this batch's targets, to replay it in order if a combination fails.
    std::vector<std::pair<int64_t, Leaves>> before;
    for (const auto& [t, n] : seen) {
      Leaves v;
      for (size_t l = 0; l < kinds.size(); ++l)
        v.push_back(out.read(l, t));
      before.emplace_back(t, std::move(v));
    }
    try {
      for (const auto& round : rounds)
        if (!round.empty()) combine(Selection{round.data(), int(round.size())});
    } catch (const Error&) {
      for (const auto& [t, v] : before)
        for (size_t l = 0; l < kinds.size(); ++l)
          out.write(l, t, v[l]);
      for (int lane = 0; lane < count; ++lane) {
        uint16_t one = uint16_t(lane);
        if (target[size_t(start + lane)] >= 0) combine(Selection{&one, 1});
      }
      throw;
    }
  }
  rt.recycle(k.id, std::move(src));
  rt.set(k.outputs[0], std::move(out));
}

} // namespace strata::tbbe
