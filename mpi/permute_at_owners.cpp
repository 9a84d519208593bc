// A permute whose result is about as large as its source or larger (a
// scatter, a transpose written as a permute), the result held in blocks: each
// element goes to the rank that holds its target (docs/mpi.md, "Permute"):
//  1. every rank computes its rows of the source, each element's value and
//     target (the rows plan; permute_in_order.cpp computed them);
//  2. each rank sends every (value, target) pair to the rank that holds the
//     target's row, in row-major order (ignored elements dropped; a target
//     out of range fails the rank, and every rank then runs the whole
//     kernel, which raises the interpreter's error);
//  3. each rank computes its rows of the defaults and combines into them the
//     pairs it received, in the order of the ranks that sent them: rank s's
//     source rows all come before rank s + 1's, so every target's elements
//     are combined in row-major source order, as on one machine, whatever
//     the combining function (floats included).
// The exchange is every pair whose target another rank holds, once (the
// all-to-all of the "permute"); nothing is gathered.
#include "mpi/agree.h"
#include "mpi/rank_runner.h"

namespace strata::mpi {

bool RankRunner::permute_at_owners(const Kernel& k, const kn::Permute& p, const RowsRun& src,
                                   const Index& out_shape) {
  const Type elem = p.defaults.type.elem();
  const Shape out(out_shape.begin(), out_shape.end());
  int ranks = comm_.size(), me = comm_.rank();
  if (!held_in_blocks(elem, out, ranks, s_.mpi.min_block_bytes)) return false;
  // 2. The pairs by the rank that holds their target, in order.
  const Array& pairs = src.results[0];
  const size_t first_target_leaf = elem.leaves().size();
  std::vector<std::vector<int64_t>> to(static_cast<size_t>(ranks));
  bool out_of_range = false;
  for (int64_t i = 0; i < pairs.size() && !out_of_range; ++i) {
    bool ignored = true;
    for (size_t c = 0; c < out.size(); ++c) {
      int64_t t = pairs.leaf_data<int64_t>(first_target_leaf + c)[i];
      ignored = ignored && t == -1;
      out_of_range = out_of_range || t < 0 || t >= out[c];
    }
    if (ignored) {
      out_of_range = false;
      continue;
    }
    if (!out_of_range) {
      int64_t row = pairs.leaf_data<int64_t>(first_target_leaf)[i];
      to[size_t(owner_of_row(out[0], ranks, row))].push_back(i);
    }
  }
  if (part_failed([&] {
        if (out_of_range) throw Error(ErrorKind::Bounds, "a target out of range");
      })) {
    after_failure(k, false);
    return true;
  }
  std::vector<Bytes> send(static_cast<size_t>(ranks), Bytes{});
  for (int d = 0; d < ranks; ++d)
    if (d != me) send[size_t(d)] = pack(select(pairs, to[size_t(d)]));
  std::vector<Bytes> in = comm_.alltoall(std::move(send));
  Rows mine = block_rows(out[0], ranks, me);
  Array received = agreed(comm_, [&] {
    const Type pair = pairs.elem_type();
    size_t pair_bytes = bytes_of(pair, Shape{1});
    std::vector<Bytes> parts;
    std::vector<Rows> rows;
    int64_t n = 0;
    for (int s = 0; s < ranks; ++s) {
      parts.push_back(s == me ? pack(select(pairs, to[size_t(me)])) : std::move(in[size_t(s)]));
      int64_t count = int64_t(parts.back().size() / pair_bytes);
      rows.push_back(Rows{n, n + count});
      n += count;
    }
    Array a = assemble_rows(pair, Shape{n}, parts, rows);
    // Targets relative to this rank's rows.
    int64_t* row = a.leaf_data<int64_t>(first_target_leaf);
    for (int64_t j = 0; j < n; ++j)
      row[j] -= mine.lo;
    return a;
  });
  // 3. This rank's rows of the defaults, then the pairs combined into them.
  RowsRun defaults;
  run_rows(
      k, p.defaults, {&p.combine}, {}, [](AccPtr g, const Names&) { return g; }, defaults,
      "defaults rows");
  if (defaults.failed) {
    after_failure(k, false);
    return true;
  }
  std::vector<ArrayId> reads = array_reads(g_, k);
  Names blocks = gather_for(reads, needs_whole(p.combine, held_blocks(reads)));
  Lambda combine = localize(p.combine, blocks);
  Array acc;
  bool failed = part_failed([&] {
    acc = run("combine at owners", k, reads, blocks,
              {{"mpi__acc", defaults.results[0]}, {"mpi__pairs", received}},
              [&] { return combine_pairs(combine, 1); })[0];
  });
  if (failed) {
    after_failure(k, false);
    return true;
  }
  plan_ = "permute at the targets' ranks";
  set(k.outputs[0], Held{acc, true, out});
  return true;
}

} // namespace strata::mpi
