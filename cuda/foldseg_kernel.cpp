// cuda foldseg: `prep` (one work item) checks the segment lengths and
// writes every segment's start and the status words (the executor raises a
// negative length or a length sum other than the row's extent), then `segs`
// (one work item per (row, segment)) folds the segment left to right from
// the seed.
//
// Deterministic: every (row, segment) is folded sequentially in the
// canonical order and written once.
#include "cuda/kernel_gen.h"
#include "cuda/kernel_run.h"

#include "core/runtime_errors.h"

namespace strata::cuda {

// ------------------------------------------------------------ entries

void KernelGen::foldseg(const Kernel& k, const kn::FoldSeg& x) {
  const SrcLoc& loc = k.ops.back().loc;
  delayed(x.input, loc);
  KernelEntries& ke = entries(k);
  ArrayId offsets = add_slot(Type::array(Type::scalar(ScalarKind::I64), 1));
  ArrayId status = add_slot(Type::array(Type::scalar(ScalarKind::I64), 1));
  ke.scratch = {offsets, status};
  std::string code;
  {
    std::string name = entry_name(k, "prep");
    begin(name);
    ScalarGen s(g_, out_, code, 1);
    std::string len = s.leaf_ptr(x.segs, 0), off = s.leaf_ptr(offsets, 0);
    std::string st = s.leaf_ptr(status, 0);
    s.line("i64 total = 0, bad = -1, bad_len = 0;");
    s.open("for (i64 j = 0; j < S_SEGMENTS; ++j) {");
    s.line("i64 l = " + len + "[j];");
    s.line("if (l < 0 && bad < 0) { bad = j; bad_len = l; }");
    s.line(off + "[j] = total;");
    s.line("if (total >= 0 && l >= 0 && total <= 9223372036854775807ll - l) total += l;");
    s.line("else total = -1;");
    s.close();
    s.line(st + "[0] = bad; " + st + "[1] = bad_len; " + st + "[2] = total;");
    end(name, code);
  }
  {
    std::string name = entry_name(k, "segs");
    begin(name);
    ScalarGen s(g_, out_, code, 1);
    s.line("i64 row = t / S_SEGMENTS, seg = t % S_SEGMENTS;");
    s.line("i64 lo = " + s.leaf_ptr(offsets, 0) + "[seg], hi = lo + " + s.leaf_ptr(x.segs, 0) +
           "[seg];");
    s.line("i64 base = row * S_N;");
    s.line(std::string("c.key = base + lo") + kCombineKey + ";");
    Val acc = s.copy(s.exp(*x.seed));
    s.open("for (i64 j = lo; j < hi && !c.failed; ++j) {");
    s.line("c.key = base + j;");
    Val e = element(s, x.input, "base + j", words::row_shape);
    s.line(std::string("c.key = base + j") + kCombineKey + ";");
    s.assign(acc, s.copy(s.apply(x.f, {acc, e})));
    s.close();
    s.store(k.outputs[0], "t", acc);
    end(name, code);
  }
}

// ------------------------------------------------------------ host

void Run::foldseg(const Kernel& k, const kn::FoldSeg& x) {
  Shape sh = prepare(x.input);
  const SrcLoc& loc = k.ops.back().loc;
  int64_t n = sh.back(), nsegs = shape_size(arrays_[size_t(x.segs)].shape);
  Shape outer(sh.begin(), sh.end() - 1);
  int64_t rows = shape_size(outer);
  ArrayId offsets = scratch(k, 0), status = scratch(k, 1);
  set(offsets, allocate(offsets, {nsegs}));
  set(status, allocate(status, {3}));
  LaunchParams p = row_params(sh, rows, nsegs, 1);
  launch(entry(k, "prep"), p, 1);
  int64_t st[3];
  b_.download(st, *arrays_[size_t(status)].leaves[0], sizeof st);
  if (st[0] >= 0) throw foldseg_negative_segment(st[0], st[1], loc);
  if (st[2] != n) throw foldseg_length_mismatch(st[2], sh, loc);
  Shape out = outer;
  out.push_back(nsegs);
  set(k.outputs[0], allocate(k.outputs[0], out));
  launch(entry(k, "segs"), p, rows * nsegs);
}

} // namespace strata::cuda
