// The mpi engine: the rank runner (one rank's part of every kernel), the
// executable of one rank, and the two engines over it (docs/mpi.md).
#include "mpi/engine.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>
#include <thread>

#include "core/check.h"
#include "fusion/checks.h"
#include "fusion/fuse.h"
#include "fusion/graph_run.h"
#include "mpi/agree.h"
#include "mpi/blocks.h"
#include "mpi/local_programs.h"

namespace strata {
namespace {

using mpi::Comm;
using mpi::Names;

struct Held {
  Array local; // the whole array, or this rank's rows of it
  bool block = false;
  Shape global; // the whole array's shape
};

const Type kI64 = Type::scalar(ScalarKind::I64);

Array i64_array(int64_t v) {
  Array a = Array::allocate(kI64, {});
  a.write(0, 0, Scalar::make<int64_t>(v));
  return a;
}
Array index_array(const Shape& s) {
  Array a = Array::allocate(Type::index(int(s.size())), {});
  for (size_t l = 0; l < s.size(); ++l)
    a.write(l, 0, Scalar::make<int64_t>(s[l]));
  return a;
}
int64_t product(const Shape& s) {
  int64_t n = 1;
  for (int64_t e : s)
    n *= e;
  return n;
}
size_t bytes_of(const Type& elem, const Shape& s) {
  size_t b = 0;
  for (ScalarKind k : elem.leaves())
    b += Array::leaf_bytes(s, k);
  return b;
}
Index index_value(const Array& a) {
  Index ix;
  for (size_t l = 0; l < a.num_leaves(); ++l)
    ix.push_back(a.read(l, 0).get<int64_t>());
  return ix;
}

// A program on the local engine, compiled once per key.
struct Compiled {
  Program program;
  std::unique_ptr<Executable> exe;
};

// The shared state of one rank's executable: its graph and compiled programs.
struct RankState {
  const Engine& local;
  CompileOptions options;
  MpiOptions mpi;
  KernelGraph graph;
  std::map<std::string, std::unique_ptr<Compiled>> programs;
  std::map<int, KernelTraffic> traffic;
};

class RankRunner {
public:
  RankRunner(RankState& s, Comm& comm) : s_(s), g_(s.graph), comm_(comm) {}

  // The runner's part (fusion/graph_run.h).
  using Value = Held;
  Held bind_input(const Array& a) const { return hold(a); }
  void set(ArrayId id, Held v) {
    whole_.erase(id);
    vals_[id] = std::move(v);
  }
  Held get(ArrayId id) const { return vals_.at(id); }
  void drop(ArrayId id) {
    vals_.erase(id);
    whole_.erase(id);
  }
  Array result(ArrayId id) {
    gather({id});
    return whole(id);
  }
  bool loop_continues(ArrayId id) {
    bool go = whole(id).read(0, 0).get<bool>();
    for (const mpi::Bytes& b : comm_.allgather(mpi::Bytes{std::byte(go)}))
      if (b.at(0) != std::byte(go))
        throw Error(ErrorKind::Resource,
                    "mpi: the ranks disagree on an awhile condition (an engine bug)");
    return go;
  }
  bool condition(const Kernel& k, const kn::Branch& b) {
    std::vector<ArrayId> reads = array_reads(g_, k);
    Names blocks = gather_for(reads, mpi::needs_whole(b.cond, held_blocks(reads)));
    return agreed(comm_,
                  [&] { return eval(k, "cond", b.cond, reads, blocks).read(0, 0).get<bool>(); });
  }
  void compute(const Kernel& k) {
    uint64_t sent = comm_.sent_bytes(), received = comm_.received_bytes();
    gathered_.clear();
    if (const Delayed* d = rows_input(k))
      rows_kernel(k, *d);
    else
      whole_kernel(k);
    KernelTraffic& t = s_.traffic[k.id];
    t.plan = plan_;
    if (!gathered_.empty()) t.plan += " after gathering";
    for (const std::string& n : gathered_)
      t.plan += " " + n;
    t.sent += comm_.sent_bytes() - sent;
    t.received += comm_.received_bytes() - received;
  }

private:
  RankState& s_;
  const KernelGraph& g_;
  Comm& comm_;
  std::map<ArrayId, Held> vals_;
  std::map<ArrayId, Array> whole_;    // gathered copies of arrays held in blocks
  std::string plan_;                  // how the kernel in compute() ran
  std::vector<std::string> gathered_; // the arrays it gathered

  const std::string& name(ArrayId id) const { return g_.arrays[size_t(id)].name; }

  Held hold(const Array& a) const {
    if (comm_.size() > 1 && a.rank() >= 1 &&
        bytes_of(a.elem_type(), a.shape()) >= size_t(s_.mpi.min_block_bytes))
      return Held{mpi::row_block(a, mpi::block_rows(a.shape()[0], comm_.size(), comm_.rank())),
                  true, a.shape()};
    return Held{a, false, a.shape()};
  }

  // The whole array: held whole, or gathered before (gather()).
  const Array& whole(ArrayId id) const {
    const Held& h = vals_.at(id);
    return h.block ? whole_.at(id) : h.local;
  }

  Names held_blocks(const std::vector<ArrayId>& ids) const {
    Names n;
    for (ArrayId id : ids)
      if (vals_.at(id).block) n.insert(name(id));
    return n;
  }

  // Every rank sends its rows of each array to every other (collective).
  void gather(const std::vector<ArrayId>& ids) {
    for (ArrayId id : ids) {
      const Held& h = vals_.at(id);
      if (!h.block || whole_.count(id)) continue;
      std::vector<mpi::Bytes> parts = comm_.allgather(mpi::pack(h.local));
      gathered_.push_back(
          g_.arrays[size_t(id)].source_name.empty() ? name(id) : g_.arrays[size_t(id)].source_name);
      whole_[id] =
          agreed(comm_, [&] { return mpi::assemble(h.local.elem_type(), h.global, parts); });
    }
  }
  // Gathers the arrays of `reads` named in `need`; returns the blocks left.
  Names gather_for(const std::vector<ArrayId>& reads, const Names& need) {
    std::vector<ArrayId> ids;
    for (ArrayId id : reads)
      if (need.count(name(id))) ids.push_back(id);
    gather(ids);
    Names blocks = held_blocks(reads);
    for (const std::string& n : need)
      blocks.erase(n);
    return blocks;
  }

  // Runs `body` on the local engine as a program whose parameters are the
  // arrays `reads` (those in `blocks` as this rank's rows, with their
  // global shape and size; the others whole) and `extra`. Local work only.
  std::vector<Array> run(const std::string& key, const Kernel& k, const std::vector<ArrayId>& reads,
                         const Names& blocks,
                         const std::vector<std::pair<std::string, Array>>& extra,
                         const std::function<AccPtr()>& body) {
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
        add(mpi::shape_param(name(id)), index_array(h.global));
        add(mpi::size_param(name(id)), i64_array(product(h.global)));
      } else {
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
      c->exe = s_.local.compile(c->program, s_.options);
      slot = std::move(c);
    }
    return slot->exe->run(inputs);
  }

  Array eval(const Kernel& k, const std::string& tag, const ExpPtr& e,
             const std::vector<ArrayId>& reads, const Names& blocks) {
    std::string key = tag + "@" + std::to_string(reinterpret_cast<uintptr_t>(e.get()));
    return run(key, k, reads, blocks, {},
               [&] { return make_acc(ac::Unit{mpi::localize(e, blocks)}); })[0];
  }

  void run_checks(const Kernel& k, const Delayed& d, const std::vector<ArrayId>& reads,
                  const Names& blocks) {
    run_delayed_checks(
        d, [&](const ExpPtr& e) { return index_value(eval(k, "check", e, reads, blocks)); });
  }

  static Names checks_need(const Delayed& d, const Names& blocks) {
    Names need = mpi::needs_whole(d.shape, blocks);
    for (const Check& c : d.checks)
      for (const ExpPtr& e : {c.a, c.b})
        for (const std::string& n : mpi::needs_whole(e, blocks))
          need.insert(n);
    return need;
  }

  // The delayed input of a kernel whose output rows depend only on the same
  // rows of its input: generate; fold and the scans over rank >= 2.
  static const Delayed* rows_input(const Kernel& k) {
    if (const auto* x = std::get_if<kn::Generate>(&k.body))
      return x->body.type.rank() >= 1 ? &x->body : nullptr;
    if (const auto* x = std::get_if<kn::Fold>(&k.body))
      return x->input.type.rank() >= 2 ? &x->input : nullptr;
    if (const auto* x = std::get_if<kn::Scan>(&k.body))
      return x->input.type.rank() >= 2 ? &x->input : nullptr;
    return nullptr;
  }

  void rows_kernel(const Kernel& k, const Delayed& d) {
    std::vector<ArrayId> reads = array_reads(g_, k);
    Names blocks = gather_for(reads, checks_need(d, held_blocks(reads)));
    Index shape = agreed(comm_, [&] {
      run_checks(k, d, reads, blocks);
      return index_value(eval(k, "shape", d.shape, reads, blocks));
    });
    if (comm_.size() == 1 || bytes_of(d.type.elem(), shape) < size_t(s_.mpi.min_block_bytes))
      return whole_kernel(k);
    int64_t n = shape[0];
    // The arrays its functions read other than at the element's own row, and
    // blocks of another number of rows, come whole.
    blocks = held_blocks(reads);
    std::string aligned = mpi::aligned_index(d);
    Names need = mpi::needs_whole(d.elem, blocks, aligned);
    auto add = [&](const Names& more) { need.insert(more.begin(), more.end()); };
    if (const auto* f = std::get_if<kn::Fold>(&k.body)) {
      add(mpi::needs_whole(f->f, blocks));
      add(mpi::needs_whole(f->seed, blocks));
    }
    if (const auto* sc = std::get_if<kn::Scan>(&k.body)) {
      add(mpi::needs_whole(sc->f, blocks));
      add(mpi::needs_whole(sc->seed, blocks));
    }
    for (ArrayId id : reads)
      if (vals_.at(id).block && vals_.at(id).global[0] != n) need.insert(name(id));
    blocks = gather_for(reads, need);

    mpi::Rows rows = mpi::block_rows(n, comm_.size(), comm_.rank());
    Shape local = shape;
    local[0] = rows.count();
    std::vector<std::pair<std::string, Array>> extra = {{mpi::kLoParam, i64_array(rows.lo)},
                                                        {mpi::kShapeParam, index_array(local)}};
    std::vector<Array> results;
    bool failed = mpi::failed_anywhere(comm_, [&] {
      results = run("rows", k, reads, blocks, extra, [&] { return rows_body(k, d, blocks); });
    });
    if (failed) {
      // The error, exactly as one machine raises it: the whole kernel.
      whole_kernel(k);
      throw Error(ErrorKind::Resource,
                  "mpi: kernel " + std::to_string(k.id) +
                      " failed on some rank's rows but not whole (an engine bug)");
    }
    plan_ = "rows";
    for (size_t i = 0; i < k.outputs.size(); ++i) {
      Shape global = results[i].shape();
      global[0] = n;
      set(k.outputs[i], Held{results[i], true, global});
    }
  }

  static AccPtr rows_body(const Kernel& k, const Delayed& d, const Names& blocks) {
    auto shape = make_exp(ex::The{make_acc(ac::Var{mpi::kShapeParam})});
    AccPtr gen = make_acc(ac::Generate{shape, mpi::rows_elem(d, blocks)});
    if (const auto* f = std::get_if<kn::Fold>(&k.body))
      return make_acc(ac::Fold{mpi::localize(f->f, blocks), mpi::localize(f->seed, blocks), gen});
    if (const auto* sc = std::get_if<kn::Scan>(&k.body))
      return make_acc(
          ac::Scan{sc->kind, mpi::localize(sc->f, blocks), mpi::localize(sc->seed, blocks), gen});
    return gen;
  }

  // Every array it reads whole, the whole kernel on every rank.
  void whole_kernel(const Kernel& k) {
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

  static std::vector<const Delayed*> delayed_inputs(const Kernel& k) {
    if (const auto* x = std::get_if<kn::Generate>(&k.body)) return {&x->body};
    if (const auto* x = std::get_if<kn::Fold>(&k.body)) return {&x->input};
    if (const auto* x = std::get_if<kn::FoldSeg>(&k.body)) return {&x->input};
    if (const auto* x = std::get_if<kn::Scan>(&k.body)) return {&x->input};
    if (const auto* x = std::get_if<kn::Permute>(&k.body)) return {&x->defaults, &x->source};
    return {};
  }

  AccPtr ref(ArrayId id) const {
    auto r = make_acc(ac::Var{name(id)});
    r->type = g_.arrays[size_t(id)].type;
    return r;
  }
  static AccPtr gen(const Delayed& d) { return make_acc(ac::Generate{d.shape, d.elem}); }

  AccPtr whole_body(const Kernel& k) const {
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
};

// Every rank must be given the same inputs: their types and shapes, and the
// contents of those held whole (hashed), are compared with rank 0's.
void agree_on_inputs(Comm& comm, const std::vector<Array>& inputs, const KernelGraph& g) {
  std::string mine;
  for (const Array& a : inputs) {
    mine += a.type().str() + "[";
    for (int64_t e : a.shape())
      mine += std::to_string(e) + ",";
    uint64_t h = 1469598103934665603ull;
    if (a.rank() == 0 || bytes_of(a.elem_type(), a.shape()) < (1u << 16))
      for (std::byte b : mpi::pack(a))
        h = (h ^ uint64_t(b)) * 1099511628211ull;
    mine += "]" + std::to_string(h) + ";";
  }
  std::vector<mpi::Bytes> all =
      comm.allgather(mpi::Bytes(reinterpret_cast<const std::byte*>(mine.data()),
                                reinterpret_cast<const std::byte*>(mine.data() + mine.size())));
  for (size_t r = 1; r < all.size(); ++r)
    if (all[r] != all[0])
      throw Error(ErrorKind::Input, "mpi: rank " + std::to_string(r) +
                                        " was given other inputs than rank 0 (" +
                                        std::to_string(g.inputs.size()) +
                                        " parameters: every rank must read the same files)");
}

class RankExecutable final : public Executable {
public:
  RankExecutable(const Engine& local, const Program& p, const CompileOptions& o, MpiOptions m)
      : state_{local, o, m, build_kernel_graph(p, FusionOptions{o.fusion}), {}, {}} {}

  std::vector<Array> run_on(Comm& comm, const std::vector<Array>& inputs) {
    agree_on_inputs(comm, inputs, state_.graph);
    state_.traffic.clear();
    times_.clear();
    RankRunner runner(state_, comm);
    return run_kernel_graph(state_.graph, inputs, runner, &times_);
  }
  std::vector<Array> run(const std::vector<Array>& inputs) override {
    Comm* world = mpi::world_comm();
    if (world) return run_on(*world, inputs);
    auto self = mpi::make_thread_comms(1);
    return run_on(*self[0], inputs);
  }
  ReductionOrder reduction_order() const override { return state_.options.order; }
  std::map<int, double> kernel_run_ms() const override { return times_; }
  const std::map<int, KernelTraffic>& traffic() const { return state_.traffic; }

private:
  RankState state_;
  KernelTimes times_;
};

class MpiEngine final : public Engine {
public:
  explicit MpiEngine(const Engine& local) : local_(local) {}
  std::string name() const override { return "mpi"; }
  bool available(std::string& why) const override { return local_.available(why); }
  std::unique_ptr<Executable> compile(const Program& program,
                                      const CompileOptions& options) const override {
    require_no_target(options, name());
    return std::make_unique<RankExecutable>(local_, program, options,
                                            MpiOptions::from_environment());
  }

private:
  const Engine& local_;
};

// P rank executables run on P threads with fresh thread transports per run.
class ThreadRanksExecutable final : public Executable {
public:
  ThreadRanksExecutable(const Engine& local, const Program& p, const CompileOptions& o,
                        MpiOptions m, int ranks) {
    for (int r = 0; r < ranks; ++r)
      ranks_.push_back(std::make_unique<RankExecutable>(local, p, o, m));
  }
  std::vector<std::map<int, KernelTraffic>> traffic() const {
    std::vector<std::map<int, KernelTraffic>> v;
    for (const auto& r : ranks_)
      v.push_back(r->traffic());
    return v;
  }
  std::vector<Array> run(const std::vector<Array>& inputs) override {
    size_t n = ranks_.size();
    auto comms = mpi::make_thread_comms(int(n));
    std::vector<std::vector<Array>> results(n);
    std::vector<std::exception_ptr> errors(n);
    auto rank = [&](size_t r) {
      try {
        results[r] = ranks_[r]->run_on(*comms[r], inputs);
      } catch (...) {
        errors[r] = std::current_exception();
        comms[r]->abandon();
      }
    };
    std::vector<std::thread> threads;
    for (size_t r = 1; r < n; ++r)
      threads.emplace_back(rank, r);
    rank(0);
    for (std::thread& t : threads)
      t.join();
    for (size_t r = 0; r < n; ++r)
      if (errors[r]) std::rethrow_exception(errors[r]);
    for (size_t r = 1; r < n; ++r)
      for (size_t i = 0; i < results[0].size(); ++i)
        if (!identical(results[r].at(i), results[0][i]))
          throw Error(ErrorKind::Resource, "mpi: rank " + std::to_string(r) + "'s result " +
                                               std::to_string(i) +
                                               " differs from rank 0's (an engine bug)");
    return results[0];
  }
  ReductionOrder reduction_order() const override { return ranks_[0]->reduction_order(); }
  std::map<int, double> kernel_run_ms() const override { return ranks_[0]->kernel_run_ms(); }

private:
  std::vector<std::unique_ptr<RankExecutable>> ranks_;
};

class MpiThreadsEngine final : public Engine {
public:
  MpiThreadsEngine(const Engine& local, int ranks, MpiOptions o)
      : local_(local), ranks_(ranks), options_(o) {}
  std::string name() const override { return "mpi:" + std::to_string(ranks_); }
  bool available(std::string& why) const override { return local_.available(why); }
  std::unique_ptr<Executable> compile(const Program& program,
                                      const CompileOptions& options) const override {
    require_no_target(options, name());
    return std::make_unique<ThreadRanksExecutable>(local_, program, options, options_, ranks_);
  }

private:
  const Engine& local_;
  int ranks_;
  MpiOptions options_;
};

} // namespace

std::vector<std::map<int, KernelTraffic>> mpi_traffic(const Executable& e) {
  if (const auto* r = dynamic_cast<const RankExecutable*>(&e)) return {r->traffic()};
  if (const auto* t = dynamic_cast<const ThreadRanksExecutable*>(&e)) return t->traffic();
  return {};
}

MpiOptions MpiOptions::from_environment() {
  MpiOptions o;
  const char* v = std::getenv("STRATA_MPI_MIN_BLOCK_BYTES");
  if (!v) return o;
  std::string s = v;
  size_t digits = std::min(s.find_first_not_of("0123456789"), s.size());
  std::string suffix = s.substr(digits);
  int shift = suffix.empty()  ? 0
              : suffix == "K" ? 10
              : suffix == "M" ? 20
              : suffix == "G" ? 30
                              : -1;
  if (digits == 0 || shift < 0 || digits > 12)
    throw Error(ErrorKind::Usage, "STRATA_MPI_MIN_BLOCK_BYTES=" + s +
                                      ": expected a number of bytes (64K, 1M, 0, ...)");
  o.min_block_bytes = std::stoll(s.substr(0, digits)) << shift;
  return o;
}

std::unique_ptr<Engine> make_mpi_engine(const Engine& local) {
  return std::make_unique<MpiEngine>(local);
}

std::unique_ptr<Engine> make_mpi_threads_engine(const Engine& local, int ranks,
                                                MpiOptions options) {
  return std::make_unique<MpiThreadsEngine>(local, ranks, options);
}

} // namespace strata
