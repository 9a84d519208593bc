// A permute whose source is held in blocks and whose result is much smaller
// than its source (a histogram, a scatter into a few bins: 2·P times the
// result's bytes at most the source's values and targets), combined in
// source order along the ranks (docs/mpi.md, "Permute"):
//  1. every rank computes its rows of the source: each element's value and
//     target, in parallel (the rows plan);
//  2. rank 0 combines its elements into the defaults, in row-major order, on
//     its local engine; it passes the result to rank 1, which combines its
//     own into it, and so on: every source element is combined in row-major
//     order, exactly as on one machine, whatever the combining function
//     (floats included);
//  3. the last rank's result goes to every rank.
// The exchange is the result, P - 1 times along the ranks and once to
// every rank, instead of the source; the combining is sequential across
// ranks. A larger result is combined at the ranks that hold its rows
// instead (permute_at_owners.cpp).
#include "mpi/agree.h"
#include "mpi/rank_runner.h"

namespace strata::mpi {

bool RankRunner::permute_in_order(const Kernel& k, const kn::Permute& p) {
  if (comm_.size() == 1 || p.source.type.rank() < 1) return false;
  std::vector<ArrayId> reads = array_reads(g_, k);
  // The defaults' shape and checks, on every rank.
  Names need = needs_whole(p.defaults.shape, held_blocks(reads));
  for (const Check& c : p.defaults.checks)
    for (const ExpPtr& e : {c.a, c.b})
      for (const std::string& n : needs_whole(e, held_blocks(reads)))
        need.insert(n);
  Names blocks = gather_for(reads, need);
  Index out_shape = agreed(comm_, [&] {
    run_checks(k, p.defaults, reads, blocks);
    Array s = eval(k, "defaults shape", p.defaults.shape, reads, blocks);
    Index ix;
    for (size_t l = 0; l < s.num_leaves(); ++l)
      ix.push_back(s.read(l, 0).get<int64_t>());
    return ix;
  });
  const Type elem = p.defaults.type.elem();
  Type target_type = p.target.body->type;
  // The source's elements with their targets: (tuple value target).
  Delayed pairs = p.source;
  const std::string& i = p.source.elem.params.at(0).name;
  pairs.elem.body = make_exp(ex::Tuple{
      {p.source.elem.body,
       make_exp(ex::Let{{ex::Binding{p.target.params.at(0).name, make_exp(ex::Var{i}), {}}},
                        p.target.body})}});
  pairs.type = Type::array(Type::tuple({elem, target_type}), p.source.type.rank());
  RowsRun src;
  if (!run_rows(
          k, pairs, {&p.combine}, {}, [](AccPtr g, const Names&) { return g; }, src))
    return false;
  if (src.failed) {
    after_failure(k, false);
    return true;
  }
  // Passing the result along the ranks moves it 2 (P - 1) times; sending
  // the elements to their targets' ranks, about (P - 1) / P of them.
  if (2 * size_t(comm_.size()) * bytes_of(elem, out_shape) > bytes_of(pairs.type.elem(), src.shape))
    return permute_at_owners(k, p, src, out_shape);
  // The defaults, whole, on every rank, and the combining function: the
  // arrays they read other than through shape and size, whole.
  need = needs_whole(p.defaults.elem, held_blocks(reads));
  for (const std::string& n : needs_whole(p.combine, held_blocks(reads)))
    need.insert(n);
  blocks = gather_for(reads, need);
  Lambda combine = localize(p.combine, blocks);
  Array acc = agreed(comm_, [&] {
    return run("defaults", k, reads, blocks, {}, [&] {
      return make_acc(
          ac::Generate{localize(p.defaults.shape, blocks), localize(p.defaults.elem, blocks)});
    })[0];
  });
  // Combine along the ranks: round r, rank r combines its elements into
  // what rank r - 1 passed on.
  int ranks = comm_.size(), me = comm_.rank();
  int rank_r = int(p.source.type.rank());
  for (int r = 0; r < ranks; ++r) {
    if (r > 0) {
      std::vector<Bytes> out(static_cast<size_t>(ranks), Bytes{});
      if (me == r - 1) out[size_t(r)] = pack(acc);
      std::vector<Bytes> in = comm_.alltoall(std::move(out));
      if (me == r) acc = unpack(elem, out_shape, in[size_t(r - 1)]);
    }
    bool failed = part_failed([&] {
      if (me != r || src.results[0].size() == 0) return;
      acc = run("combine in order", k, reads, blocks,
                {{"mpi__acc", acc}, {"mpi__pairs", src.results[0]}},
                [&] { return combine_pairs(combine, rank_r); })[0];
    });
    if (failed) {
      after_failure(k, false);
      return true;
    }
  }
  // The last rank's result to every rank.
  std::vector<Bytes> all = comm_.allgather(me == ranks - 1 ? pack(acc) : Bytes{});
  Array result = agreed(comm_, [&] { return unpack(elem, out_shape, all[size_t(ranks - 1)]); });
  plan_ = "permute in order along the ranks";
  set(k.outputs[0], hold(result));
  return true;
}

} // namespace strata::mpi
