// The rank runner's protocol, its collectives and the two general plans:
// rows (generate; fold and scans over rank >= 2) and whole (anything).
#include "mpi/rank_runner.h"

#include "core/check.h"
#include "core/runtime_errors.h"
#include "fusion/checks.h"
#include "mpi/agree.h"

namespace strata::mpi {
namespace {

int64_t product(const Shape& s) {
  int64_t n = 1;
  for (int64_t e : s)
    n *= e;
  return n;
}

Index index_value(const Array& a) {
  Index ix;
  for (size_t l = 0; l < a.num_leaves(); ++l)
    ix.push_back(a.read(l, 0).get<int64_t>());
  return ix;
}

Names checks_need(const Delayed& d, const Names& blocks) {
  Names need = needs_whole(d.shape, blocks);
  for (const Check& c : d.checks)
    for (const ExpPtr& e : {c.a, c.b})
      for (const std::string& n : needs_whole(e, blocks))
        need.insert(n);
  return need;
}

// The delayed input of a kernel whose output rows depend only on the same
// rows of its input: generate; fold, foldseg and the scans over rank >= 2.
const Delayed* rows_input(const Kernel& k) {
  if (const auto* x = std::get_if<kn::Generate>(&k.body))
    return x->body.type.rank() >= 1 ? &x->body : nullptr;
  if (const auto* x = std::get_if<kn::Fold>(&k.body))
    return x->input.type.rank() >= 2 ? &x->input : nullptr;
  if (const auto* x = std::get_if<kn::FoldSeg>(&k.body))
    return x->input.type.rank() >= 2 ? &x->input : nullptr;
  if (const auto* x = std::get_if<kn::Scan>(&k.body))
    return x->input.type.rank() >= 2 ? &x->input : nullptr;
  return nullptr;
}

std::vector<const Delayed*> delayed_inputs(const Kernel& k) {
  if (const auto* x = std::get_if<kn::Generate>(&k.body)) return {&x->body};
  if (const auto* x = std::get_if<kn::Fold>(&k.body)) return {&x->input};
  if (const auto* x = std::get_if<kn::FoldSeg>(&k.body)) return {&x->input};
  if (const auto* x = std::get_if<kn::Scan>(&k.body)) return {&x->input};
  if (const auto* x = std::get_if<kn::Permute>(&k.body)) return {&x->defaults, &x->source};
  return {};
}

AccPtr gen(const Delayed& d) {
  return make_acc(ac::Generate{d.shape, d.elem});
}

} // namespace

Array i64_array(int64_t v) {
  Array a = Array::allocate(Type::scalar(ScalarKind::I64), {});
  a.write(0, 0, Scalar::make<int64_t>(v));
  return a;
}

Array index_array(const Shape& s) {
  Array a = Array::allocate(Type::index(int(s.size())), {});
  for (size_t l = 0; l < s.size(); ++l)
    a.write(l, 0, Scalar::make<int64_t>(s[l]));
  return a;
}

// ------------------------------------------------------------- the protocol

void RankRunner::set(ArrayId id, Held v) {
  whole_.erase(id);
  vals_[id] = std::move(v);
}

void RankRunner::drop(ArrayId id) {
  vals_.erase(id);
  whole_.erase(id);
}

bool RankRunner::loop_continues(ArrayId id) {
  bool go = whole(id).read(0, 0).get<bool>();
  for (const Bytes& b : comm_.allgather(Bytes{std::byte(go)}))
    if (b.at(0) != std::byte(go))
      throw Error(ErrorKind::Resource,
                  "mpi: the ranks disagree on an awhile condition (an engine bug)");
  return go;
}

bool RankRunner::condition(const Kernel& k, const kn::Branch& b) {
  std::vector<ArrayId> reads = array_reads(g_, k);
  Names blocks = gather_for(reads, needs_whole(b.cond, held_blocks(reads)));
  return agreed(comm_,
                [&] { return eval(k, "cond", b.cond, reads, blocks).read(0, 0).get<bool>(); });
}

void RankRunner::compute(const Kernel& k) {
  uint64_t sent = comm_.sent_bytes(), received = comm_.received_bytes();
  gathered_.clear();
  part_error_.reset();
  requested_.clear();
  bool done = false;
  if (const Delayed* d = rows_input(k)) {
    rows_kernel(k, *d);
    done = true;
  } else if (const auto* f = std::get_if<kn::Fold>(&k.body)) {
    done = fold_partials(k, *f);
  } else if (const auto* st = std::get_if<kn::Stencil>(&k.body)) {
    done = stencil_halo(k, *st);
  } else if (const auto* sc = std::get_if<kn::Scan>(&k.body)) {
    done = scan_carries(k, *sc);
  } else if (const auto* fs = std::get_if<kn::FoldSeg>(&k.body)) {
    done = foldseg_carries(k, *fs);
  } else if (const auto* p = std::get_if<kn::Permute>(&k.body)) {
    done = permute_in_order(k, *p);
  }
  if (!done) whole_kernel(k);
  KernelExchange& t = s_.traffic[k.id];
  t.plan = plan_;
  if (!requested_.empty()) t.plan += " by request and reply of";
  for (const std::string& n : requested_)
    t.plan += " " + n;
  if (!gathered_.empty()) t.plan += " after gathering";
  for (const std::string& n : gathered_)
    t.plan += " " + n;
  t.sent += comm_.sent_bytes() - sent;
  t.received += comm_.received_bytes() - received;
}

// ------------------------------------------------------------ the arrays

Held RankRunner::hold(const Array& a) const {
  return mpi::hold(a, comm_.size(), comm_.rank(), s_.mpi.min_block_bytes);
}

const Array& RankRunner::whole(ArrayId id) const {
  const Held& h = vals_.at(id);
  return h.block ? whole_.at(id) : h.local;
}

Names RankRunner::held_blocks(const std::vector<ArrayId>& ids) const {
  Names n;
  for (ArrayId id : ids)
    if (vals_.at(id).block) n.insert(name(id));
  return n;
}

void RankRunner::gather(const std::vector<ArrayId>& ids) {
  for (ArrayId id : ids) {
    const Held& h = vals_.at(id);
    if (!h.block || whole_.count(id)) continue;
    std::vector<Bytes> parts = comm_.allgather(pack(h.local));
    gathered_.push_back(shown(id));
    whole_[id] = agreed(comm_, [&] { return assemble(h.local.elem_type(), h.global, parts); });
  }
}

Names RankRunner::gather_for(const std::vector<ArrayId>& reads, const Names& need) {
  std::vector<ArrayId> ids;
  for (ArrayId id : reads)
    if (need.count(name(id))) ids.push_back(id);
  gather(ids);
  Names blocks = held_blocks(reads);
  for (const std::string& n : need)
    blocks.erase(n);
  return blocks;
}

Names RankRunner::function_blocks(const std::vector<ArrayId>& reads, const Lambda& f,
                                  const ExpPtr& seed) {
  Names need = needs_whole(f, held_blocks(reads));
  for (const std::string& a : needs_whole(seed, held_blocks(reads)))
    need.insert(a);
  return gather_for(reads, need);
}

Array RankRunner::fetch_rows(const Held& h, const std::vector<Rows>& want) {
  std::vector<Rows> have;
  for (int s = 0; s < comm_.size(); ++s)
    have.push_back(block_rows(h.global[0], comm_.size(), s));
  return fetch_rows(h.local, h.global, have, want);
}

Array RankRunner::fetch_rows(const Array& local, const Shape& global, const std::vector<Rows>& have,
                             const std::vector<Rows>& want) {
  int ranks = comm_.size(), me = comm_.rank();
  Rows mine = have[size_t(me)];
  auto overlap = [](Rows a, Rows b) {
    Rows r{std::max(a.lo, b.lo), std::min(a.hi, b.hi)};
    return r.hi > r.lo ? r : Rows{a.lo, a.lo};
  };
  auto own = [&](Rows r) { return row_block(local, Rows{r.lo - mine.lo, r.hi - mine.lo}); };
  std::vector<Bytes> out(static_cast<size_t>(ranks), Bytes{});
  for (int d = 0; d < ranks; ++d) {
    Rows r = overlap(mine, want[size_t(d)]);
    if (d != me && r.count() > 0) out[size_t(d)] = pack(own(r));
  }
  std::vector<Bytes> in = comm_.alltoall(std::move(out));
  return agreed(comm_, [&] {
    // Rank s sent rows overlap(have[s], want[me]): in rank order they are
    // the wanted rows in order, own rows included.
    Rows w = want[size_t(me)];
    std::vector<Bytes> parts;
    std::vector<Rows> rows;
    for (int s = 0; s < ranks; ++s) {
      Rows r = overlap(have[size_t(s)], w);
      if (r.count() == 0) continue;
      parts.push_back(s == me ? pack(own(r)) : std::move(in[size_t(s)]));
      rows.push_back(Rows{r.lo - w.lo, r.hi - w.lo});
    }
    Shape shape = global;
    shape[0] = w.count();
    return assemble_rows(local.elem_type(), shape, parts, rows);
  });
}

std::vector<Rows> RankRunner::chunk_aligned(int64_t n, int64_t chunk, bool from_end) const {
  auto start = [&](int64_t i) { return (i + chunk - 1) / chunk * chunk; };
  std::vector<Rows> v;
  for (int d = 0; d < comm_.size(); ++d) {
    Rows b = block_rows(n, comm_.size(), d);
    if (from_end) b = Rows{n - b.hi, n - b.lo};
    int64_t lo = std::min(start(b.lo), b.hi);
    v.push_back(Rows{lo, lo < b.hi ? std::min(start(b.hi), n) : lo});
  }
  return v;
}

// --------------------------------------------------------- local programs

std::vector<Array> RankRunner::run(const std::string& key, const Kernel& k,
                                   const std::vector<ArrayId>& reads, const Names& blocks,
                                   const Extra& extra, const std::function<AccPtr()>& body,
                                   const ReductionOrder* order) {
  std::vector<Param> params;
  std::vector<Array> inputs;
  auto add = [&](const std::string& n, const Array& a) {
    params.push_back(Param{n, a.type(), {}, true});
    inputs.push_back(a);
  };
  for (ArrayId id : reads) {
    const Held& h = vals_.at(id);
    if (blocks.count(name(id))) {
      add(name(id), h.local);
      add(shape_param(name(id)), index_array(h.global));
      add(size_param(name(id)), i64_array(product(h.global)));
    } else if (!h.block || whole_.count(id)) {
      add(name(id), whole(id));
    }
  }
  for (const auto& [n, a] : extra)
    add(n, a);
  std::string full_key = key + "#" + std::to_string(k.id);
  for (const std::string& b : blocks)
    full_key += " " + b;
  auto& slot = s_.programs[full_key];
  if (!slot) {
    auto c = std::make_unique<Compiled>();
    c->program.params = params;
    c->program.body = body();
    // The kernel's operation is its last source operation: errors it
    // raises carry that operation's position (as oracle/graph_eval.cpp).
    if (!k.ops.empty()) c->program.body->loc = k.ops.back().loc;
    check_program(c->program);
    CompileOptions o = s_.options;
    if (order) o.order = *order;
    c->exe = s_.local.compile(c->program, o);
    slot = std::move(c);
  }
  // One key, one program: the same parameters every time (a plan that
  // reused another's key would run the other's program).
  for (size_t i = 0; i < params.size(); ++i)
    if (slot->program.params.size() != params.size() ||
        slot->program.params[i].name != params[i].name ||
        slot->program.params[i].type != params[i].type)
      throw Error(ErrorKind::Resource, "mpi: the local program `" + full_key +
                                           "` was compiled for other parameters (an engine bug)");
  try {
    return slot->exe->run(inputs);
  } catch (const Error& e) {
    // An allocation that failed names the local program's operation: the
    // kernel's (its first source operation) is attributed by the graph run.
    if (e.kind() == ErrorKind::Resource) throw allocation_unattributed(e);
    throw;
  }
}

Array RankRunner::eval(const Kernel& k, const std::string& tag, const ExpPtr& e,
                       const std::vector<ArrayId>& reads, const Names& blocks) {
  std::string key = tag + "@" + std::to_string(reinterpret_cast<uintptr_t>(e.get()));
  return run(key, k, reads, blocks, {}, [&] { return make_acc(ac::Unit{localize(e, blocks)}); })[0];
}

void RankRunner::run_checks(const Kernel& k, const Delayed& d, const std::vector<ArrayId>& reads,
                            const Names& blocks) {
  run_delayed_checks(
      d, [&](const ExpPtr& e) { return index_value(eval(k, "check", e, reads, blocks)); });
}

// ------------------------------------------------------------- the plans

bool RankRunner::run_rows(const Kernel& k, const Delayed& d, const std::vector<const Lambda*>& fns,
                          const std::vector<ExpPtr>& exps,
                          const std::function<AccPtr(AccPtr, const Names&)>& body, RowsRun& out,
                          const std::string& key, bool reads_alone,
                          const std::function<bool(int64_t)>& worth) {
  std::vector<ArrayId> reads = array_reads(g_, k);
  Names blocks = gather_for(reads, checks_need(d, held_blocks(reads)));
  Index shape = agreed(comm_, [&] {
    run_checks(k, d, reads, blocks);
    return index_value(eval(k, "shape", d.shape, reads, blocks));
  });
  if (comm_.size() == 1 || bytes_of(d.type.elem(), shape) < size_t(s_.mpi.min_block_bytes) ||
      (worth && !worth(shape[0])))
    return false;
  out.n = shape[0];
  out.shape = Shape(shape.begin(), shape.end());
  // The reads at computed indices (sites), by request and reply
  // (read_requests.cpp); then the element reads the replies where it is.
  Requested got;
  if (!request_reads(k, d, fns, exps, out, key, got)) {
    out.failed = true;
    return true;
  }
  if (got.alone && reads_alone) {
    out.results = {got.fetched[0].second};
    return true;
  }
  rows_local(k, got.fetched.empty() ? d : got.element, fns, exps, body, out, key, got.fetched);
  return true;
}

Names RankRunner::rows_need(const Kernel& k, const Delayed& d,
                            const std::vector<const Lambda*>& fns, const std::vector<ExpPtr>& exps,
                            int64_t n) const {
  // The arrays its functions read other than at the element's own row, and
  // the blocks of another number of rows that the element reads, come whole.
  std::vector<ArrayId> reads = array_reads(g_, k);
  Names blocks = held_blocks(reads);
  Names need = needs_whole(d.elem, blocks, aligned_index(d));
  auto add = [&](const Names& more) { need.insert(more.begin(), more.end()); };
  for (const Lambda* f : fns)
    add(needs_whole(*f, blocks));
  for (const ExpPtr& e : exps)
    add(needs_whole(e, blocks));
  // foldseg's segment lengths over rows are the same for every row: each
  // rank reads all (of one row, foldseg_carries.cpp fetches what it needs).
  if (const auto* fs = std::get_if<kn::FoldSeg>(&k.body); fs && fs->input.type.rank() >= 2)
    if (blocks.count(name(fs->segs))) add({name(fs->segs)});
  // Blocks of another number of rows: their rows are not this rank's (their
  // shapes and sizes are parameters).
  Names other_rows;
  for (ArrayId id : reads)
    if (vals_.at(id).block && vals_.at(id).global[0] != n) other_rows.insert(name(id));
  add(needs_whole(d.elem, other_rows));
  return need;
}

void RankRunner::rows_local(const Kernel& k, const Delayed& d,
                            const std::vector<const Lambda*>& fns, const std::vector<ExpPtr>& exps,
                            const std::function<AccPtr(AccPtr, const Names&)>& body, RowsRun& out,
                            const std::string& key, const Extra& aligned) {
  std::vector<ArrayId> reads = array_reads(g_, k);
  Names blocks = gather_for(reads, rows_need(k, d, fns, exps, out.n));
  Rows rows = block_rows(out.n, comm_.size(), comm_.rank());
  Shape local = out.shape;
  local[0] = rows.count();
  Extra extra = {{kLoParam, i64_array(rows.lo)}, {kShapeParam, index_array(local)}};
  extra.insert(extra.end(), aligned.begin(), aligned.end());
  Names elem_blocks = blocks;
  for (const auto& [n, a] : aligned)
    elem_blocks.insert(n);
  out.failed = part_failed([&] {
    out.results = run(key, k, reads, elem_blocks, extra, [&] {
      auto sh = make_exp(ex::The{make_acc(ac::Var{kShapeParam})});
      return body(make_acc(ac::Generate{sh, rows_elem(d, elem_blocks)}), blocks);
    });
  });
}

void RankRunner::rows_kernel(const Kernel& k, const Delayed& d) {
  std::vector<const Lambda*> fns;
  std::vector<ExpPtr> exps;
  if (const auto* f = std::get_if<kn::Fold>(&k.body)) {
    fns.push_back(&f->f);
    exps.push_back(f->seed);
  }
  if (const auto* sc = std::get_if<kn::Scan>(&k.body)) {
    fns.push_back(&sc->f);
    exps.push_back(sc->seed);
  }
  if (const auto* fs = std::get_if<kn::FoldSeg>(&k.body)) {
    fns.push_back(&fs->f);
    exps.push_back(fs->seed);
  }
  RowsRun r;
  bool ran = run_rows(
      k, d, fns, exps,
      [&](AccPtr g, const Names& blocks) {
        if (const auto* f = std::get_if<kn::Fold>(&k.body))
          return make_acc(ac::Fold{localize(f->f, blocks), localize(f->seed, blocks), g});
        if (const auto* sc = std::get_if<kn::Scan>(&k.body))
          return make_acc(
              ac::Scan{sc->kind, localize(sc->f, blocks), localize(sc->seed, blocks), g});
        if (const auto* fs = std::get_if<kn::FoldSeg>(&k.body))
          return make_acc(
              ac::FoldSeg{localize(fs->f, blocks), localize(fs->seed, blocks), g, ref(fs->segs)});
        return g;
      },
      r, "rows", std::holds_alternative<kn::Generate>(k.body));
  if (!ran) return whole_kernel(k);
  if (r.failed) return after_failure(k, false);
  plan_ = "rows";
  for (size_t i = 0; i < k.outputs.size(); ++i) {
    Shape global = r.results[i].shape();
    global[0] = r.n;
    set(k.outputs[i], Held{r.results[i], true, global});
  }
}

void RankRunner::after_failure(const Kernel& k, bool recover) {
  std::optional<Error> part = std::exchange(part_error_, std::nullopt);
  whole_kernel(k); // raises the error exactly as one machine raises it
  if (part && part->kind() == ErrorKind::Resource) {
    plan_ = "whole (a rank's part ran out of memory)";
    return;
  }
  if (!recover)
    throw Error(ErrorKind::Resource,
                "mpi: kernel " + std::to_string(k.id) +
                    " failed on some rank's part but not whole (an engine bug)" +
                    (part ? ": " + part->headline() : std::string()));
}

void RankRunner::whole_kernel(const Kernel& k) {
  std::vector<ArrayId> reads = array_reads(g_, k);
  gather(reads);
  std::vector<Array> results = agreed(comm_, [&] {
    for (const Delayed* d : delayed_inputs(k))
      run_checks(k, *d, reads, {});
    return run("whole", k, reads, {}, {}, [&] { return whole_body(k); });
  });
  plan_ = "whole";
  for (size_t i = 0; i < k.outputs.size(); ++i)
    set(k.outputs[i], hold(results[i]));
}

AccPtr RankRunner::ref(ArrayId id) const {
  auto r = make_acc(ac::Var{name(id)});
  r->type = g_.arrays[size_t(id)].type;
  return r;
}

AccPtr RankRunner::whole_body(const Kernel& k) const {
  if (const auto* x = std::get_if<kn::Generate>(&k.body)) return gen(x->body);
  if (const auto* x = std::get_if<kn::Fold>(&k.body))
    return make_acc(ac::Fold{x->f, x->seed, gen(x->input)});
  if (const auto* x = std::get_if<kn::FoldSeg>(&k.body))
    return make_acc(ac::FoldSeg{x->f, x->seed, gen(x->input), ref(x->segs)});
  if (const auto* x = std::get_if<kn::Scan>(&k.body))
    return make_acc(ac::Scan{x->kind, x->f, x->seed, gen(x->input)});
  if (const auto* x = std::get_if<kn::Permute>(&k.body))
    return make_acc(ac::Permute{x->combine, gen(x->defaults), x->target, gen(x->source)});
  const auto& st = std::get<kn::Stencil>(k.body);
  return make_acc(ac::Stencil{st.window, st.boundary, st.f, ref(st.input)});
}

} // namespace strata::mpi
