// jit fold and fold1 (one result per row of the innermost dimension), in the
// association order the executable declares (core/reduction_order.h):
// - rows shorter than the order's fold_chunked_from: the main entry folds
//   whole rows left to right from the seed (fold1: from the first element),
//   rows in parallel, about kGrain elements per chunk of rows (float and
//   tuple folds: W rows at a time in lanes, jit/fold_codegen.h); a row (a
//   group of rows in lanes) in which a read checked once per row would fail
//   (jit/chunk_reads.cpp) is handed, before any of its elements, to the
//   checked rows entry (part 2, run-once: the same rows one at a time,
//   every check per element);
// - longer rows: chunks of fold_chunk positions, each's total by the chunk
//   entry (part 1: the lane tree of jit/fold_codegen.h chunk_total, lanes in
//   LLVM vectors), every (row, chunk) in parallel; then the host combines a
//   row's totals left to right from the seed with the combine entry.
//
// Deterministic: the chunks and lanes depend on the row length and the
// declared order only, never on the thread count, and each chunk's total
// lands in its own slot before the totals are combined in order; the oracle
// replays exactly this order (bitwise on every element).
#include "core/runtime_errors.h"
#include "fusion/contraction.h"
#include "jit/fold_codegen.h"
#include "jit/kernel_builder.h"
#include "jit/kernel_slots.h"
#include "jit/kernels.h"
#include "parallel/contraction.h"

namespace strata::jit {

using llvm::Value;
using namespace host;

// ------------------------------------------------------------ entry points

// fold rows [begin, end), each left to right; the chunk [begin, end) of
// positions in one row (slots::Fold).
void KernelBuilder::fold(const kn::Fold& x) {
  const Type& t = x.input.type.elem();
  run_once_part_ = run_once_part(t, x.f);
  closed_parts(x.input);
  if (x.seed) closed(*x.seed);
  int rank = x.input.type.rank();
  int out = k_.outputs[0];
  // Rows [begin, end) of `f`, each left to right: in lanes where `lanes` (W
  // rows at a time, a row per lane, the last group masked), else one at a
  // time.
  auto rows = [&](FnBuilder& f, int lanes) {
    Val sh = load_shape(f, rank);
    Val outer(sh.begin(), sh.end() - 1);
    Value* n = sh.back();
    std::optional<Val> seed;
    if (x.seed && lanes > 0) seed = f.load_slots(f.aux, slots::Fold::seed(rank), t);
    auto row = [&](Value* r) {
      Val oix = f.from_linear(outer, r);
      auto elem = [&](Value* j) { return f.apply(x.input.elem, {with(oix, j)}); };
      // Reads at positions affine in j are checked once per row: a row in
      // which one fails runs again, with every check, in the checked entry
      // (jit/chunk_reads.cpp).
      f.open_chunk_checks(n, [&] { return f.delegate_from(f.checked_entry, r); });
      Val init = x.seed ? f.load_slots(f.aux, slots::Fold::seed(rank), t) : elem(f.i64(0));
      Val acc = fold_loop(f, f.i64(x.seed ? 0 : 1), n, init, [&](const Val& a, Value* j) {
        // The element, not the combiner, runs for every j of the row.
        f.chunk_element(j);
        Val v = elem(j);
        f.chunk_element(nullptr);
        return f.apply(x.f, {a, v});
      });
      f.close_chunk_checks();
      f.store_elem(out, t, r, acc);
    };
    if (lanes > 0)
      fold_rows_in_lanes(f, x.input.elem, x.f, t, out, lanes, outer, n, f.begin, f.end, seed);
    else
      f.for_range(f.begin, f.end, row);
  };
  // Rows whose combiner does not reorder exactly (floats, tuples) are
  // sequential chains: W rows at a time in vectors, a row per lane. Exactly
  // reordering ones are left to LLVM, which vectorises along the row. A
  // fold of rank 1 has one row: no lanes (their code would only cost
  // compile time). Nor has a contraction (fusion/contraction.h): its rows
  // run in parallel/contraction.h's tiles wherever they pay and their reads
  // are in range; this entry only takes the rest (less than kMinWork
  // products, or a read out of range), one row at a time (matmul's
  // compile: 10.9 -> 8.4 ms with run-once parts unoptimised, docs/jit.md).
  bool contraction = find_contraction(g_, x).has_value();
  code_.row_lanes = rank > 1 && !contraction ? rows_in_lanes(x.input.elem, x.f, t, o_.checked) : 0;
  // The rows again with every check per element, run once (no pass
  // pipeline): a row in which a read checked once per row fails goes there.
  // In part 2 (with the other run-once entries, or alone): neither the
  // rows nor the chunks wait for it (n-body's: 10 M instructions).
  std::string checked_rows;
  if (o_.checked) {
    int index;
    FnBuilder f = entry(index, 2);
    f.run_once();
    rows(f, 0);
    f.finish();
    checked_rows = entry_name(index);
  }
  {
    FnBuilder f = entry(code_.main);
    f.checked_entry = checked_rows;
    rows(f, code_.row_lanes);
    f.finish();
  }
  chunk_entry(t, x.f, [&](FnBuilder& f, ChunkLengths lengths) {
    Val sh = load_shape(f, rank);
    Val outer(sh.begin(), sh.end() - 1);
    Value* n = sh.back();
    Value* row = f.b.CreateUDiv(f.begin, n);
    Value* j0 = f.b.CreateSub(f.begin, f.b.CreateMul(row, n));
    Val oix = f.from_linear(outer, row);
    ChunkElement element{&x.input.elem, [&](Value* q) {
                           return with(f.like(q, oix), f.b.CreateAdd(f.like(q, j0), q));
                         }};
    Val acc = chunk_total(f, t, x.f, false, lanes(t, x.f), f.b.CreateSub(f.end, f.begin), element,
                          lengths);
    f.store_slots(f.aux, slots::Fold::total(rank), t, acc);
  });
  combine(x.f, t, false, code_.combine);
}

// ------------------------------------------------------------ host

void run_fold(Runtime& rt, const CompiledKernel& c, const Kernel& k, const kn::Fold& f,
              const ReductionOrder& order) {
  Shape sh = rt.prepare(c, f.input);
  int64_t n = sh.back();
  Shape outer = outer_of(sh);
  int64_t rows = shape_size(outer);
  size_t leaves = f.input.type.elem().leaves().size();
  rt.set(k.outputs[0], result_array(rt, f.input.type.elem(), outer));
  // The seed: only for a non-empty result, after the result is allocated and
  // before any element, as in the interpreter (docs/language.md, Errors).
  std::vector<Slot> seed(leaves);
  if (f.seed && rows > 0) seed = rt.eval(c, *f.seed);
  if (!f.seed && n == 0 && rows > 0) throw fold1_empty_row(sh, k.ops.back().loc);
  Array& out = rt.get_mutable(k.outputs[0]);
  int rank = int(sh.size());
  // A sum of products of two arrays (a matrix product...): tiled loops in the
  // same order (parallel/contraction.h).
  if (rows > 0 && !order.fold_chunked(n) &&
      parallel::fold_as_contraction(rt.graph, f, rt.arrays(), sh,
                                    f.seed ? static_cast<const void*>(seed.data()) : nullptr, out))
    return;
  if (!order.fold_chunked(n)) {
    std::vector<Slot> aux = shape_slots(sh, slots::Fold::count(rank, leaves));
    std::copy(seed.begin(), seed.end(), aux.begin() + slots::Fold::seed(rank));
    // Rows in lanes: chunks of whole groups of lanes.
    rt.parallel(c, c.code.main, rows, whole_groups(row_grain(n), c.code.row_lanes), aux.data());
    return;
  }
  // Long rows: chunks of the order's fold_chunk, each's lane tree in
  // parallel, combined left to right from the seed.
  int64_t chunk = order.fold_chunk;
  int64_t chunks = (n + chunk - 1) / chunk;
  for (int64_t row = 0; row < rows; ++row) {
    std::vector<std::vector<Slot>> partial(static_cast<size_t>(chunks), std::vector<Slot>(leaves));
    JitError first;
    bool failed = parallel_ranges(
        chunks, 1,
        [&](int64_t b, int64_t, JitError& err) {
          std::vector<Slot> aux = shape_slots(sh, slots::Fold::count(rank, leaves));
          int64_t start = row * n + b * chunk;
          int64_t len = std::min(chunk, n - b * chunk);
          if (c.fn(c.code.chunk)(rt.table(), &err, start, start + len, aux.data()) != 0)
            return true;
          auto total = aux.begin() + slots::Fold::total(rank);
          std::copy(total, total + long(leaves), partial[size_t(b)].begin());
          return false;
        },
        first);
    if (failed) rt.fail(c, first);
    using slots::Combine;
    std::vector<Slot> acc(Combine::count(leaves));
    size_t next = 0;
    if (f.seed)
      std::copy(seed.begin(), seed.end(), acc.begin() + Combine::accumulator);
    else
      std::copy(partial[next].begin(), partial[next].end(), acc.begin() + Combine::accumulator),
          ++next;
    for (; next < partial.size(); ++next) {
      std::copy(partial[next].begin(), partial[next].end(), acc.begin() + Combine::operand(leaves));
      rt.call(c, c.code.combine, 0, 1, acc.data());
    }
    slots_to_array(acc.data() + Combine::accumulator, out, row);
  }
}

} // namespace strata::jit
