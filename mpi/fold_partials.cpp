// A fold of a whole array of rank 1 to one value from per-rank partials,
// bitwise the fold one machine runs (docs/mpi.md, "Folds to one value").
//
// In the blocked order a long row is cut into chunks of F elements at fixed
// positions (core/reduction_order.h): the row is f(..f(f(z, T0), T1)..,
// T(K-1)) with Tj the lane-tree total of chunk j, and neither the chunks nor
// their totals depend on who computes them. So:
//  1. each rank computes its rows of the fold's input (the rows plan);
//  2. each rank takes the chunks that start in its rows, fetching the rest
//     of its last chunk from the next ranks (fewer than F elements);
//  3. each rank computes its chunks' totals on the local engine: a fold1 of
//     rows of F elements (and of the shorter last chunk) in the order that
//     makes every row one chunk (chunked from 1 element, chunks of F), whose
//     result is the chunk's total;
//  4. the totals (K values in all: the partials) go to every rank, which
//     folds them left to right from the seed (the canonical order).
// A row too short to be chunked is folded left to right by one machine: it
// runs whole. Steps 1 and 2 are also the scans' (scan_carries.cpp): long_row.
#include "mpi/agree.h"
#include "mpi/rank_runner.h"

namespace strata::mpi {

bool RankRunner::long_row(const Kernel& k, const Delayed& input, const Lambda& f,
                          const ExpPtr& seed, bool scan, bool from_end, LongRow& out) {
  const ReductionOrder& order = s_.options.order;
  RowsRun r;
  if (!run_rows(
          k, input, {&f}, {seed}, [](AccPtr g, const Names&) { return g; }, r, "rows", false,
          [&](int64_t n) { return scan ? order.scan_chunked(n) : order.fold_chunked(n); }))
    return false; // one rank, a small row, or too short to be chunked: whole
  if (r.failed) {
    after_failure(k, false);
    out.decided = true;
    return false;
  }
  int64_t n = out.n = r.n;
  out.have = chunk_aligned(n, scan ? order.scan_chunk : order.fold_chunk, from_end);
  // Fetched as elements, then put in the reduction's order.
  std::vector<Rows> elements = out.have;
  if (from_end)
    for (Rows& h : elements)
      h = Rows{n - h.hi, n - h.lo};
  out.mine = fetch_rows(Held{r.results[0], true, Shape{n}}, elements);
  if (from_end) out.mine = reversed(out.mine);
  std::vector<ArrayId> reads = array_reads(g_, k);
  out.blocks = function_blocks(reads, f, seed);
  out.fn = localize(f, out.blocks);
  out.seed = localize(seed, out.blocks);
  return true;
}

bool RankRunner::fold_partials(const Kernel& k, const kn::Fold& f) {
  if (f.input.type.rank() != 1 || comm_.size() == 1) return false;
  LongRow row;
  if (!long_row(k, f.input, f.f, f.seed, false, false, row)) return row.decided;
  const ReductionOrder& order = s_.options.order;
  int64_t F = order.fold_chunk;
  const Array& mine = row.mine;
  std::vector<ArrayId> reads = array_reads(g_, k);
  const Names& blocks = row.blocks;
  const Lambda& fn = row.fn;
  const ExpPtr& seed = row.seed;
  const Type elem = f.input.type.elem();
  auto var = [](const std::string& n) { return make_acc(ac::Var{n}); };
  ReductionOrder per_chunk = order;
  per_chunk.fold_chunked_from = 1; // every row one chunk: fold1 gives its total
  int64_t full = mine.size() / F, tail = mine.size() % F;
  Array totals;
  bool failed = part_failed([&] {
    std::vector<Bytes> parts;
    std::vector<Rows> rows;
    if (full > 0) {
      Array rows_of_chunks = view_as(mine, Shape{full, F});
      parts.push_back(pack(run(
          "chunk totals", k, reads, blocks, {{"mpi__chunks", rows_of_chunks}},
          [&] {
            return make_acc(ac::Fold{fn, nullptr, var("mpi__chunks")});
          },
          &per_chunk)[0]));
      rows.push_back(Rows{0, full});
    }
    if (tail > 0) {
      Array last = row_block(mine, Rows{full * F, mine.size()});
      parts.push_back(pack(run(
          "last chunk total", k, reads, blocks, {{"mpi__chunk", last}},
          [&] {
            return make_acc(ac::Fold{fn, nullptr, var("mpi__chunk")});
          },
          &per_chunk)[0]));
      rows.push_back(Rows{full, full + 1});
    }
    totals = assemble_rows(elem, Shape{full + (tail > 0)}, parts, rows);
  });
  if (failed) {
    after_failure(k, false);
    return true;
  }
  // The partials, in chunk order on every rank.
  std::vector<Bytes> all = comm_.allgather(pack(totals));
  Array result;
  failed = part_failed([&] {
    std::vector<Rows> rows;
    int64_t at = 0;
    for (const Bytes& b : all) {
      int64_t count = int64_t(b.size() / std::max<size_t>(bytes_of(elem, Shape{1}), 1));
      rows.push_back(Rows{at, at + count});
      at += count;
    }
    Array t = assemble_rows(elem, Shape{at}, all, rows);
    ReductionOrder canonical = ReductionOrder::canonical();
    result = run(
        "combine partials", k, reads, blocks, {{"mpi__totals", t}},
        [&] {
          return make_acc(ac::Fold{fn, seed, var("mpi__totals")});
        },
        &canonical)[0];
  });
  if (failed) {
    after_failure(k, false);
    return true;
  }
  plan_ = "fold of partials";
  set(k.outputs[0], hold(result));
  return true;
}

} // namespace strata::mpi
