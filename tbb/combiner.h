// A reduction's combining function running on lanes: lane i holds one
// accumulator, and `step` computes acc := f(acc, x) (or f(x, acc) for the
// right scans) on the selected lanes at once. Shared by fold, foldseg and the
// scans; each worker task owns its Combiner (and its frame).
#pragma once

#include <cstring>

#include "tbb/runtime.h"

namespace strata::tbbe {

// Copies the selected lanes of `from` into the same lanes of `to` (one frame).
inline void copy_selected(Frame& f, const Operand& from, const Operand& to, const Selection& s) {
  std::vector<ScalarKind> kinds = from.type.leaves();
  for (size_t l = 0; l < kinds.size(); ++l) {
    size_t size = scalar_size(kinds[l]);
    std::byte* src = f.reg<std::byte>(from.regs[l]);
    std::byte* dst = f.reg<std::byte>(to.regs[l]);
    if (s.is_dense())
      std::memcpy(dst, src, size_t(s.count) * size);
    else
      for_each_lane(
          s, [&](int i) { std::memcpy(dst + size_t(i) * size, src + size_t(i) * size, size); });
  }
}

// Copies lane `from_lane` of `from` (frame a) to lane `to_lane` of `to` (frame b).
inline void copy_lane(Frame& a, const Operand& from, int from_lane, Frame& b, const Operand& to,
                      int to_lane) {
  std::vector<ScalarKind> kinds = from.type.leaves();
  for (size_t l = 0; l < kinds.size(); ++l) {
    size_t size = scalar_size(kinds[l]);
    std::memcpy(b.reg<std::byte>(to.regs[l]) + size_t(to_lane) * size,
                a.reg<std::byte>(from.regs[l]) + size_t(from_lane) * size, size);
  }
}

class Combiner {
public:
  // `acc_first`: f is (f acc x); otherwise (f x acc) as in scanr.
  Combiner(const ScalarFunction& f, const ArrayTable& arrays, bool acc_first = true)
      : f_(f), frame_(f.registers(), arrays), acc_(acc_first ? 0 : 1) {
    f_.prepare(frame_);
  }
  Frame& frame() { return frame_; }
  const Operand& acc() const { return f_.params()[size_t(acc_)]; }
  const Operand& x() const { return f_.params()[size_t(1 - acc_)]; }
  // acc := combine(acc, x) on the selected lanes.
  void step(const Selection& s) {
    f_.run(frame_, s);
    copy_selected(frame_, f_.result(), acc(), s);
  }
  void fill_acc(const Leaves& v, int count) {
    for (int lane = 0; lane < count; ++lane)
      write_lane(frame_, acc().regs, lane, v);
  }

private:
  const ScalarFunction& f_;
  Frame frame_;
  int acc_;
};

// Combines the accumulators of lanes 0..count-1 in order, pairwise
// ((0,1), (2,3), ...) level by level: a fixed tree whose shape depends only
// on `count`. Returns the result in lane 0 of the accumulator.
inline void tree_reduce_lanes(Combiner& c, int count) {
  Frame& f = c.frame();
  while (count > 1) {
    int pairs = count / 2;
    for (int i = 0; i < pairs; ++i) {
      copy_lane(f, c.acc(), 2 * i + 1, f, c.x(), i);
      if (i > 0) copy_lane(f, c.acc(), 2 * i, f, c.acc(), i);
    }
    c.step(Selection::dense(pairs));
    if (count % 2) copy_lane(f, c.acc(), count - 1, f, c.acc(), pairs);
    count = pairs + count % 2;
  }
}

} // namespace strata::tbbe
