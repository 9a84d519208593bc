// A scan (scanl, scanl1, scanl', scanr, scanr1) of one row held in blocks,
// from chunk carries: bitwise the scan one machine runs (docs/mpi.md, "Scans").
//
// In the blocked order a long row is scanned in chunks of S elements at
// fixed positions (core/reduction_order.h): chunk j is scanned left to right
// from carry j, where carry 0 is the seed (none for scanl1) and carry j+1 =
// f(carry j, T j) with T j the lane-tree total of chunk j. So:
//  1. each rank computes its rows of the scan's input and takes the chunks
//     that start in them (as fold_partials.cpp does), with their totals
//     (but the row's last chunk's, which one machine never computes);
//  2. the totals go to every rank, which computes every carry by scanning
//     them left to right from the seed (the canonical order);
//  3. each rank scans its chunks from their carries: a scanl1 of
//     [carry j, chunk j] in the canonical order, whose elements after the
//     first are the accumulators after each element;
//  4. the results move from the chunk-aligned ranges to the output's blocks
//     (scanl' 's scan is scanl's results less the last, which is its total).
// A right scan (scanr, scanr1) is the same in scan order: position q is
// element n - 1 - q, combined g(acc, x) = f(x, acc), and its results are
// the left scan's read backwards; the ranks' blocks, counted from the end,
// come in reverse rank order. A row too short to be chunked runs whole.
#include "core/scan_layout.h"
#include "mpi/agree.h"
#include "mpi/rank_runner.h"

namespace strata::mpi {
namespace {

AccPtr var(const std::string& n) {
  return make_acc(ac::Var{n});
}
ExpPtr the(const std::string& n) {
  return make_exp(ex::The{var(n)});
}
ExpPtr i64(int64_t v) {
  return make_exp(ex::Const{Scalar::make<int64_t>(v)});
}
ExpPtr prim(Prim op, std::vector<ExpPtr> args) {
  return make_exp(ex::PrimApp{op, std::move(args)});
}

// scanl1 of [carry, chunk...] (the carry a rank-0 array, the chunk rank 1):
// after its first element, the accumulator after each of the chunk's.
AccPtr scan_from_carry(const Lambda& f) {
  auto i = [] { return make_exp(ex::Proj{0, make_exp(ex::Var{"mpi__i"})}); };
  ExpPtr elem =
      make_exp(ex::Read{var("mpi__chunk"), make_exp(ex::Index{{prim(Prim::Sub, {i(), i64(1)})}})});
  Lambda g;
  g.params = {Param{"mpi__i", Type::index(1), {}, true}};
  g.body = make_exp(ex::If{prim(Prim::Eq, {i(), i64(0)}), the("mpi__carry"), elem});
  ExpPtr n = prim(Prim::Add, {make_exp(ex::SizeOf{var("mpi__chunk")}), i64(1)});
  return make_acc(ac::Scan{ac::ScanKind::Scanl1, f, nullptr,
                           make_acc(ac::Generate{make_exp(ex::Index{{n}}), std::move(g)})});
}

} // namespace

bool RankRunner::scan_carries(const Kernel& k, const kn::Scan& sc) {
  using ac::ScanKind;
  // scanl1 / scanr1: no seed; right: positions counted from the row's end.
  bool scanl1 = !scan_is_seeded(sc.kind);
  bool prime = sc.kind == ScanKind::ScanlPrime;
  bool right = scans_from_the_right(sc.kind);
  if (sc.input.type.rank() != 1 || comm_.size() == 1) return false;
  LongRow row;
  if (!long_row(k, sc.input, sc.f, sc.seed, true, right, row)) return row.decided;
  const ReductionOrder& order = s_.options.order;
  int ranks = comm_.size(), me = comm_.rank();
  int64_t n = row.n, S = order.scan_chunk;
  // Ranges in scan order (a right scan's position q is element n - 1 - q).
  const std::vector<Rows>& have = row.have;
  const Array& mine = row.mine;
  std::vector<ArrayId> reads = array_reads(g_, k);
  const Names& blocks = row.blocks;
  // In scan order a right scan combines g(acc, x) = f(x, acc).
  Lambda fn = row.fn;
  if (right) std::swap(fn.params[0], fn.params[1]);
  const ExpPtr& seed = row.seed;
  const Type elem = sc.input.type.elem();
  ReductionOrder per_chunk = order;
  per_chunk.fold_chunked_from = 1; // every row one chunk: fold1 gives its total
  per_chunk.fold_chunk = S;
  ReductionOrder canonical = ReductionOrder::canonical();
  int64_t first_chunk = have[size_t(me)].lo / S;
  int64_t full = mine.size() / S, tail = mine.size() % S;
  int64_t chunks = full + (tail > 0);

  // 1. This rank's chunk totals (rank order is chunk order), but for the
  // row's last chunk, whose total no carry needs (one machine never
  // computes it: f must not run on values it does not).
  int64_t totalled = have[size_t(me)].hi == n ? chunks - 1 : chunks; // all full chunks
  Array totals;
  bool failed = part_failed([&] {
    if (totalled <= 0) {
      totals = Array::allocate(elem, Shape{0}, false);
      return;
    }
    totals = run(
        "chunk totals", k, reads, blocks, {{"mpi__chunks", view_as(mine, Shape{totalled, S})}},
        [&] {
          return make_acc(ac::Fold{fn, nullptr, var("mpi__chunks")});
        },
        &per_chunk)[0];
  });
  // 2. Every carry, on every rank: scanl (scanl1) of the totals.
  std::vector<Bytes> all = comm_.allgather(pack(totals));
  Array carries; // carry j of chunk j (scanl1: carry j + 1 at j)
  Array scanned; // this rank's results, one per element of `mine`
  failed = part_failed([&] {
    // In chunk order: rank order, or the reverse for a right scan.
    std::vector<Rows> rows(all.size());
    int64_t at = 0;
    size_t each = bytes_of(elem, Shape{1});
    for (size_t i = 0; i < all.size(); ++i) {
      size_t d = right ? all.size() - 1 - i : i;
      int64_t count = int64_t(all[d].size() / each);
      rows[d] = Rows{at, at + count};
      at += count;
    }
    Array t = assemble_rows(elem, Shape{at}, all, rows);
    carries = run(
        "carries", k, reads, blocks, {{"mpi__totals", t}},
        [&] {
          return make_acc(ac::Scan{scanl1 ? ac::ScanKind::Scanl1 : ac::ScanKind::Scanl, fn, seed,
                                   var("mpi__totals")});
        },
        &canonical)[0];
    // 3. This rank's chunks, each scanned from its carry (scanl1's chunk 0
    // has none: a scanl1 of the chunk alone).
    scanned = Array::allocate(elem, Shape{mine.size()}, false);
    for (int64_t c = 0; c < chunks; ++c) {
      int64_t j = first_chunk + c;
      Rows at{c * S, std::min((c + 1) * S, mine.size())};
      Array chunk = row_block(mine, at);
      Array res;
      int64_t skip = 0;
      if (scanl1 && j == 0) {
        res = run(
            "first chunk", k, reads, blocks, {{"mpi__chunk", chunk}},
            [&] {
              return make_acc(ac::Scan{ac::ScanKind::Scanl1, fn, nullptr, var("mpi__chunk")});
            },
            &canonical)[0];
      } else {
        Array carry = Array::allocate(elem, Shape{}, false);
        copy_elements(carries, scanl1 ? j - 1 : j, carry, 0, 1);
        res = run(
            "chunk from its carry", k, reads, blocks,
            {{"mpi__chunk", chunk}, {"mpi__carry", carry}}, [&] { return scan_from_carry(fn); },
            &canonical)[0];
        skip = 1;
      }
      copy_elements(res, skip, scanned, at.lo, at.count());
    }
  });
  if (failed) {
    after_failure(k, false);
    return true;
  }
  // 4. The results this rank made, as rows of the output, then the output's
  // blocks: scanl's output has n + 1 rows (the seed first), the others n.
  // scanl' 's results are scanl's: its scan the first n, its total the last.
  bool seeded = !scanl1;
  int64_t out_n = seeded ? n + 1 : n;
  std::vector<Rows> made;
  for (int d = 0; d < ranks; ++d) {
    Rows h = have[size_t(d)];
    bool first = h.lo == 0 && h.hi > 0;
    if (seeded)
      made.push_back(h.count() == 0 ? Rows{h.lo + 1, h.lo + 1}
                                    : Rows{first ? 0 : h.lo + 1, h.hi + 1});
    else
      made.push_back(h);
  }
  Array produced = agreed(comm_, [&] {
    // scanl's first rank starts with the seed, carry 0.
    if (!seeded || made[size_t(me)].lo != 0 || mine.size() == 0) return scanned;
    Array out = Array::allocate(elem, Shape{mine.size() + 1}, false);
    copy_elements(carries, 0, out, 0, 1);
    copy_elements(scanned, 0, out, 1, mine.size());
    return out;
  });
  if (right) {
    // scanr's element i is the accumulator after position n - i: the
    // left scan's results read backwards.
    for (Rows& m : made)
      m = Rows{out_n - m.hi, out_n - m.lo};
    produced = reversed(produced);
  }
  int64_t scan_n = prime ? n : out_n;
  std::vector<Rows> out_blocks;
  for (int d = 0; d < ranks; ++d)
    out_blocks.push_back(block_rows(scan_n, ranks, d));
  Array result = fetch_rows(produced, Shape{out_n}, made, out_blocks);
  plan_ = "scan from carries";
  set(k.outputs[0], Held{result, true, Shape{scan_n}});
  if (prime) {
    // scanl' 's total: the last accumulator, to every rank.
    Array total =
        fetch_rows(produced, Shape{out_n}, made, std::vector<Rows>(size_t(ranks), Rows{n, n + 1}));
    set(k.outputs[1], hold(view_as(total, Shape{})));
  }
  return true;
}

} // namespace strata::mpi
