// A stencil over an array held in blocks of rows, with halos (docs/mpi.md):
// each rank fetches the r rows on either side of its block (r = half the
// window's outermost extent) from the ranks that hold them, runs the
// stencil over that extended block on the local engine and keeps its own
// rows. Every window of its own rows then reads real rows or, at the whole
// array's first and last rows, the boundary, exactly as on one machine.
// A wrapping boundary reads the far end of the array: that stencil runs whole,
// as does one whose function reads arrays other than through its window.
// The extended block's own edge rows see a boundary one machine would not;
// they are thrown away, and an error raised only there is no error: the
// whole kernel then decides (after_failure, recovering).
#include "mpi/agree.h"
#include "mpi/rank_runner.h"

namespace strata::mpi {

bool RankRunner::stencil_halo(const Kernel& k, const kn::Stencil& st) {
  const Held& in = vals_.at(st.input);
  if (comm_.size() == 1 || !in.block || whole_.count(st.input) ||
      st.boundary.kind == ac::BoundaryKind::Wrap)
    return false;
  std::vector<ArrayId> reads = array_reads(g_, k);
  Names blocks = held_blocks(reads);
  Names need = needs_whole(st.f, blocks);
  for (const std::string& n : needs_whole(st.boundary.constant, blocks))
    need.insert(n);
  // The function sees the input through its window only: any other use of
  // it (its shape too) would see the extended block.
  if (!uses(st.f, {name(st.input)}).empty() ||
      !uses(st.boundary.constant, {name(st.input)}).empty())
    return false;
  blocks = gather_for(reads, need);
  blocks.erase(name(st.input)); // passed as the extended block

  int ranks = comm_.size(), me = comm_.rank();
  int64_t n = in.global[0], r = st.window.at(0) / 2;
  std::vector<Rows> want;
  for (int d = 0; d < ranks; ++d) {
    Rows b = block_rows(n, ranks, d);
    want.push_back(Rows{std::max<int64_t>(b.lo - r, 0), std::min(b.hi + r, n)});
  }
  Array extended = fetch_rows(in, want);
  Rows mine = block_rows(n, ranks, me);
  Shape local = in.global;
  local[0] = mine.count();
  int rank = int(in.global.size());

  std::vector<Array> results;
  bool failed = part_failed([&] {
    Extra extra = {{name(st.input), extended},
                   {"mpi__off", i64_array(mine.lo - want[size_t(me)].lo)},
                   {kShapeParam, index_array(local)}};
    results = run("stencil rows", k, reads, blocks, extra, [&] {
      auto the = [](const std::string& a) { return make_exp(ex::The{make_acc(ac::Var{a})}); };
      auto i = [] { return make_exp(ex::Var{"mpi__i"}); };
      std::vector<ExpPtr> at;
      for (int c = 0; c < rank; ++c) {
        ExpPtr comp = make_exp(ex::Proj{c, i()});
        if (c == 0) comp = make_exp(ex::PrimApp{Prim::Add, {comp, the("mpi__off")}});
        at.push_back(comp);
      }
      Lambda keep;
      keep.params = {Param{"mpi__i", Type::index(rank), {}, true}};
      keep.body = make_exp(ex::Read{make_acc(ac::Var{"mpi__s"}), make_exp(ex::Index{at})});
      ac::Boundary boundary = st.boundary;
      boundary.constant = localize(st.boundary.constant, blocks);
      AccPtr stencil = make_acc(ac::Stencil{st.window, boundary, localize(st.f, blocks),
                                            make_acc(ac::Var{name(st.input)})});
      return make_acc(ac::Alet{{ac::Binding{"mpi__s", stencil, {}}},
                               make_acc(ac::Generate{the(kShapeParam), keep})});
    });
  });
  if (failed) {
    after_failure(k, true);
    return true;
  }
  plan_ = "rows with halos";
  set(k.outputs[0], Held{results[0], true, in.global});
  return true;
}

} // namespace strata::mpi
