// cuda fold and fold1 (one result per row of the innermost dimension), in
// the association order the executable declares (core/reduction_order.h):
// - rows shorter than the order's fold_chunked_from: `rows`, one work item
//   per row folding it left to right from the seed (fold1: from the first
//   element);
// - longer rows: chunks of C = fold_chunk positions; `lanes` (one work item
//   per lane slot of each chunk: lane k folds the chunk's elements k, k + Ls,
//   ... in order), `tree` (one per chunk: the lanes folded by halves, the
//   shared lane tree of cuda/kernel_gen.h), then `finish` (one per row: the
//   chunk totals left to right from the seed).
// The order is in the launch words only (C, K, Ls), so one generated kernel
// serves every order.
//
// Deterministic: which element goes to which lane and how the lanes
// combine depend on the row length and the declared order only, never on
// the grid or the device; the oracle replays exactly this order.
#include "cuda/kernel_gen.h"
#include "cuda/kernel_run.h"

#include "core/runtime_errors.h"

namespace strata::cuda {

// ------------------------------------------------------------ entries

void KernelGen::fold(const Kernel& k, const kn::Fold& x) {
  const SrcLoc& loc = k.ops.back().loc;
  delayed(x.input, loc);
  closed(x.seed, false); // evaluated first by the executor when rows are chunked
  check_rank(x.input.type.rank() + 1, loc);
  KernelEntries& ke = entries(k);
  ArrayId lanes = add_slot(Type::array(x.input.type.elem(), 1));
  ke.scratch = {lanes};
  ArrayId out = k.outputs[0];
  std::string code;
  // rows: one work item per row, left to right
  {
    std::string name = entry_name(k, "rows");
    begin(name);
    ScalarGen s(g_, out_, code, 1);
    s.line("i64 base = t * S_N;");
    s.line("c.key = base;");
    Val acc;
    std::string first = "0";
    if (x.seed) {
      acc = s.copy(s.exp(*x.seed));
    } else {
      acc = s.copy(element(s, x.input, "base", words::row_shape));
      first = "1";
    }
    s.open("for (i64 j = " + first + "; j < S_N && !c.failed; ++j) {");
    s.line("c.key = base + j;");
    Val e = element(s, x.input, "base + j", words::row_shape);
    s.line(std::string("c.key = base + j") + kCombineKey + ";");
    s.assign(acc, s.copy(s.apply(x.f, {acc, e})));
    s.close();
    s.store(out, "t", acc);
    end(name, code);
  }
  Reduce r{x.input, [](const std::string& q) { return q; },
           [&](ScalarGen& s, const Val& a, const Val& e) {
             return s.apply(x.f, {a, e});
           }};
  lanes_entry(k, r, lanes);
  tree_entry(k, r, lanes);
  // finish: work item per row combines its chunk totals in order, from the seed
  {
    std::string name = entry_name(k, "finish");
    begin(name);
    ScalarGen s(g_, out_, code, 1);
    s.line("i64 base = t * S_CHUNKS;");
    s.line(std::string("c.key = t * S_N") + kCombineKey + ";");
    Val acc;
    std::string first = "0";
    if (x.seed) {
      acc = s.copy(s.exp(*x.seed));
    } else {
      acc = s.copy(s.load(lanes, "base * S_LANE_SLOTS"));
      first = "1";
    }
    s.open("for (i64 j = " + first + "; j < S_CHUNKS && !c.failed; ++j) {");
    s.line(std::string("c.key = t * S_N + j * S_CHUNK") + kCombineKey + ";");
    Val e = s.load(lanes, "(base + j) * S_LANE_SLOTS");
    s.assign(acc, s.copy(s.apply(x.f, {acc, e})));
    s.close();
    s.store(out, "t", acc);
    end(name, code);
  }
}

// ------------------------------------------------------------ host

void Run::fold(const Kernel& k, const kn::Fold& x) {
  Shape sh = prepare(x.input);
  int64_t n = sh.back();
  Shape outer(sh.begin(), sh.end() - 1);
  int64_t rows = shape_size(outer);
  if (!x.seed && n == 0 && rows > 0) throw fold1_empty_row(sh, k.ops.back().loc);
  set(k.outputs[0], allocate(k.outputs[0], outer));
  if (!order_.fold_chunked(n)) {
    launch(entry(k, "rows"), row_params(sh, rows, n, 1), rows);
    return;
  }
  // The seed before any element (docs/language.md, Errors): a row's work
  // item evaluates it first, but the chunks' lanes run before any row's.
  if (x.seed && rows > 0) eval(*x.seed);
  LaunchParams p = chunked_params(sh, rows, order_.fold_chunk, x.input.type.elem(), x.f);
  ArrayId lanes = scratch(k, 0);
  chunk_totals(k, lanes, p);
  launch(entry(k, "finish"), p, rows);
  arrays_[size_t(lanes)] = {};
}

} // namespace strata::cuda
