// A reduction's combining function running on lanes: lane i holds one
// accumulator, and `step` computes acc := f(acc, x) (or f(x, acc) for the
// right scans) on the selected lanes at once. Shared by fold, foldseg and the
// scans; each worker task owns its Combiner (and its frame).
#pragma once

#include <cstring>

#include "tbb/gather.h"
#include "tbb/runtime.h"

namespace strata::tbbe {

// Copies the selected lanes of registers `from` into the same lanes of `to`
// (one frame); `sizes` are the leaves' widths.
inline void copy_selected(Frame& f, const std::vector<int>& from, const std::vector<int>& to,
                          const std::vector<size_t>& sizes, const Selection& s) {
  for (size_t l = 0; l < sizes.size(); ++l) {
    std::byte* src = f.reg<std::byte>(from[l]);
    std::byte* dst = f.reg<std::byte>(to[l]);
    if (s.is_dense())
      std::memcpy(dst, src, size_t(s.count) * sizes[l]);
    else
      for_each_lane(s, [&](int i) { copy_slot(src, i, dst, i, sizes[l]); });
  }
}

// Copies lane `from_lane` of registers `from` (frame a) to lane `to_lane` of
// registers `to` (frame b).
inline void copy_lane(Frame& a, const std::vector<int>& from, int from_lane, Frame& b,
                      const std::vector<int>& to, int to_lane, const std::vector<size_t>& sizes) {
  for (size_t l = 0; l < sizes.size(); ++l)
    copy_slot(a.reg<std::byte>(from[l]), from_lane, b.reg<std::byte>(to[l]), to_lane, sizes[l]);
}

class Combiner {
public:
  // `acc_first`: f is (f acc x); otherwise (f x acc) as in scanr. `lanes`:
  // the most lanes it combines at once.
  Combiner(const ScalarFunction& f, const ArrayTable& arrays, bool acc_first = true,
           int lanes = kBatch)
      : f_(f), frame_(f.registers(), arrays, lanes), acc_(acc_first ? 0 : 1),
        sizes_(leaf_sizes(f.result().type.leaves())) {
    f_.prepare(frame_);
  }
  Frame& frame() { return frame_; }
  const Operand& acc() const { return f_.params()[size_t(acc_)]; }
  const Operand& x() const { return f_.params()[size_t(1 - acc_)]; }
  // The byte width of each leaf of the accumulator.
  const std::vector<size_t>& sizes() const { return sizes_; }
  // acc := combine(acc, x) on the selected lanes.
  void step(const Selection& s) {
    f_.run(frame_, s);
    copy_selected(frame_, f_.result().regs, acc().regs, sizes_, s);
  }
  void fill_acc(const Leaves& v, int count) {
    for (int lane = 0; lane < count; ++lane)
      write_lane(frame_, acc().regs, lane, v);
  }

private:
  const ScalarFunction& f_;
  Frame frame_;
  int acc_;
  std::vector<size_t> sizes_;
};

} // namespace strata::tbbe
