// The mpi engine's executables: one rank's (RankExecutable, on a
// communicator), P ranks as threads (ThreadRanksExecutable), and the two
// engines over them (docs/mpi.md).
#include "mpi/engine.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "core/environment.h"
#include "core/interrupt.h"
#include "core/printer.h"
#include "fusion/fuse.h"
#include "fusion/graph_run.h"
#include "mpi/agree.h"
#include "mpi/files.h"
#include "mpi/rank_runner.h"

namespace strata {
namespace {

using mpi::Comm;
using mpi::Held;

// FNV-1a of some bytes: enough to tell ranks' descriptions apart (not a
// cache key; nothing is stored under it).
uint64_t fnv1a(const void* data, size_t size) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i)
    h = (h ^ uint64_t(static_cast<const unsigned char*>(data)[i])) * 1099511628211ull;
  return h;
}

// What every rank must agree on about an input: its type and shape, and
// the contents of those held whole when small (hashed).
std::string describe_input(const Type& elem, const Shape& shape, const Array* whole) {
  std::string dims;
  for (int64_t e : shape)
    dims += (dims.empty() ? "" : ", ") + std::to_string(e);
  uint64_t h = fnv1a(nullptr, 0);
  if (whole && (shape.empty() || mpi::bytes_of(elem, shape) < (1u << 16))) {
    mpi::Bytes packed = mpi::pack(*whole);
    h = fnv1a(packed.data(), packed.size());
  }
  return elem.str() + "[" + dims + "]\t" + std::to_string(h) + "\n";
}

// What a rank runs, a line each (name<TAB>value): the program (hashed),
// the options that shape its kernels and their order, and the local engine.
std::string describe_run(const mpi::RankState& s, const std::string& program_text) {
  uint64_t h = fnv1a(program_text.data(), program_text.size());
  const CompileOptions& o = s.options;
  return "the program\t" + std::to_string(h) + "\n" + "fusion\t" + (o.fusion ? "on" : "off") +
         "\n" + "checks\t" + (o.checked ? "on" : "off") + "\n" + "math\t" + math_mode_name(o.math) +
         "\n" + "the reduction order\t" + o.order.describe() + "\n" + "the local engine\t" +
         s.local.name() + "\n" + "STRATA_MPI_MIN_BLOCK_BYTES\t" +
         std::to_string(s.mpi.min_block_bytes) + "\n";
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> v;
  for (size_t at = 0, nl; (nl = s.find('\n', at)) != std::string::npos; at = nl + 1)
    v.push_back(s.substr(at, nl - at));
  return v;
}

// Every rank must run the same program with the same options (describe_run)
// on the same inputs (describe_input): one collective, the first of a run,
// so a rank that differs is named before any rank acts on the difference.
// Every rank sees every description and so throws the same error.
void agree_on_run(Comm& comm, const std::string& run, const std::string& inputs,
                  const KernelGraph& g) {
  std::string mine = run + "\f" + inputs;
  std::vector<mpi::Bytes> all =
      comm.allgather(mpi::Bytes(reinterpret_cast<const std::byte*>(mine.data()),
                                reinterpret_cast<const std::byte*>(mine.data() + mine.size())));
  auto parts = [&](size_t r) {
    std::string t(reinterpret_cast<const char*>(all[r].data()), all[r].size());
    size_t ff = t.find('\f');
    if (ff == std::string::npos) ff = t.size();
    return std::pair{lines_of(t.substr(0, ff)), lines_of(t.substr(std::min(ff + 1, t.size())))};
  };
  auto [run0, inputs0] = parts(0);
  for (size_t r = 1; r < all.size(); ++r) {
    auto [run_r, inputs_r] = parts(r);
    std::string where = "mpi: rank " + std::to_string(r);
    for (size_t i = 0; i < run0.size() && i < run_r.size(); ++i) {
      if (run_r[i] == run0[i]) continue;
      std::string name = run0[i].substr(0, run0[i].find('\t'));
      std::string was = run0[i].substr(run0[i].find('\t') + 1);
      std::string what = run_r[i].substr(run_r[i].find('\t') + 1);
      std::string how = name == "the program" ? " runs another program than rank 0"
                                              : " runs with " + name + " " + what +
                                                    ", rank 0 with " + name + " " + was;
      throw Error(ErrorKind::Usage,
                  where + how + " (every rank must run the same program with the same options)");
    }
    if (run_r.size() != run0.size())
      throw Error(ErrorKind::Usage, where + " is another version of strata than rank 0's");
    where += " was given ";
    if (inputs_r.size() != inputs0.size())
      throw Error(ErrorKind::Input, where + std::to_string(inputs_r.size()) + " inputs, rank 0 " +
                                        std::to_string(inputs0.size()));
    for (size_t i = 0; i < inputs0.size(); ++i) {
      if (inputs_r[i] == inputs0[i]) continue;
      const ManifestArray& p = g.arrays[size_t(g.inputs.at(i))];
      std::string what = inputs_r[i].substr(0, inputs_r[i].find('\t'));
      std::string was = inputs0[i].substr(0, inputs0[i].find('\t'));
      throw Error(
          ErrorKind::Input,
          where + "another `" + (p.source_name.empty() ? p.name : p.source_name) +
              "` than rank 0: " +
              (what == was ? "the same type and shape, other contents" : what + " against " + was) +
              " (every rank must read the same inputs)");
    }
  }
}

class RankExecutable final : public Executable {
public:
  RankExecutable(const Engine& local, const Program& p, const CompileOptions& o, MpiOptions m)
      : state_{local, o, m, build_kernel_graph(p, FusionOptions{o.fusion}), {}, {}},
        run_(describe_run(state_, print_program(p))) {}

  std::vector<Array> run_on(Comm& comm, const std::vector<Array>& inputs) {
    std::string described;
    for (const Array& a : inputs)
      described += describe_input(a.elem_type(), a.shape(), &a);
    agree_on_run(comm, run_, described, state_.graph);
    check_graph_inputs(state_.graph, inputs);
    std::vector<Held> held;
    for (const Array& a : inputs)
      held.push_back(mpi::hold(a, comm.size(), comm.rank(), state_.mpi.min_block_bytes));
    std::vector<Held> out = run_held(comm, std::move(held));
    std::vector<Array> results;
    for (size_t i = 0; i < out.size(); ++i)
      results.push_back(mpi::gather_result(comm, out[i], i));
    return results;
  }
  // Each rank reads the rows it holds, and writes them (mpi/files.h).
  std::vector<Array> run_files_on(Comm& comm, const std::vector<NpyRowsReader>& files,
                                  const std::vector<std::string>& outputs) {
    std::vector<std::pair<Type, Shape>> types;
    std::string headers;
    for (const NpyRowsReader& f : files) {
      types.emplace_back(f.type(), f.shape());
      headers += describe_input(f.type(), f.shape(), nullptr);
    }
    agree_on_run(comm, run_, headers, state_.graph);
    mpi::agreed(comm, [&] { check_graph_input_types(state_.graph, types); });
    std::vector<Held> held = mpi::read_inputs(comm, files, state_.mpi.min_block_bytes);
    std::string described;
    for (const Held& h : held)
      described += describe_input(h.local.elem_type(), h.global, h.block ? nullptr : &h.local);
    agree_on_run(comm, run_, described, state_.graph);
    std::vector<Held> out = run_held(comm, std::move(held));
    std::vector<Array> results;
    if (!outputs.empty())
      mpi::write_results(comm, out, outputs);
    else
      for (size_t i = 0; i < out.size(); ++i)
        results.push_back(mpi::gather_result(comm, out[i], i));
    return results;
  }
  std::vector<Array> run(const std::vector<Array>& inputs) override {
    return on_world([&](Comm& c) { return run_on(c, inputs); });
  }
  std::vector<Array> run_files(const std::vector<NpyRowsReader>& inputs,
                               const std::vector<std::string>& outputs) override {
    return on_world([&](Comm& c) { return run_files_on(c, inputs, outputs); });
  }
  ReductionOrder reduction_order() const override { return state_.options.order; }
  // The local engine's programs are compiled on first run, with the same
  // MathMode: under Fast they may be up to its bound away (an exact engine
  // stays inside it).
  int math_ulps() const override {
    return state_.options.math == MathMode::Fast ? kFastMathUlps : 0;
  }
  std::map<int, double> kernel_run_ms() const override { return times_; }
  std::map<int, KernelExchange> kernel_exchange() const override { return state_.traffic; }
  const std::map<int, KernelExchange>& traffic() const { return state_.traffic; }

private:
  mpi::RankState state_;
  std::string run_; // describe_run: what every rank must agree on
  KernelTimes times_;

  std::vector<Held> run_held(Comm& comm, std::vector<Held> inputs) {
    state_.traffic.clear();
    times_.clear();
    mpi::RankRunner runner(state_, comm);
    return run_kernel_graph_bound(state_.graph, std::move(inputs), runner, &times_);
  }
  // The processes mpirun started, or this one alone.
  template <class F> std::vector<Array> on_world(F&& f) {
    if (Comm* world = mpi::world_comm()) return f(*world);
    auto self = mpi::make_thread_comms(1);
    return f(*self[0]);
  }
};

// An engine whose ranks compile with `local`: available where it is, its
// one-time set-up theirs; files are read and written by rows.
class RanksEngine : public Engine {
public:
  explicit RanksEngine(const Engine& local) : local_(local) {}
  bool available(std::string& why) const override { return local_.available(why); }
  std::jthread prepare() const override { return local_.prepare(); }
  bool reads_files_by_rows() const override { return true; }

protected:
  const Engine& local_;
};

class MpiEngine final : public RanksEngine {
public:
  using RanksEngine::RanksEngine;
  std::string name() const override { return "mpi"; }
  std::unique_ptr<Executable> compile(const Program& program,
                                      const CompileOptions& options) const override {
    require_no_target(options, name());
    return std::make_unique<RankExecutable>(local_, program, options,
                                            MpiOptions::from_environment());
  }
};

// P rank executables run on P threads with fresh thread transports per run.
class ThreadRanksExecutable final : public Executable {
public:
  ThreadRanksExecutable(const Engine& local, const Program& p, const CompileOptions& o,
                        MpiOptions m, int ranks) {
    for (int r = 0; r < ranks; ++r)
      ranks_.push_back(std::make_unique<RankExecutable>(local, p, o, m));
  }
  std::vector<std::map<int, KernelExchange>> traffic() const {
    std::vector<std::map<int, KernelExchange>> v;
    for (const auto& r : ranks_)
      v.push_back(r->traffic());
    return v;
  }
  std::vector<Array> run(const std::vector<Array>& inputs) override {
    return on_threads([&](RankExecutable& e, Comm& c) { return e.run_on(c, inputs); });
  }
  std::vector<Array> run_files(const std::vector<NpyRowsReader>& inputs,
                               const std::vector<std::string>& outputs) override {
    return on_threads(
        [&](RankExecutable& e, Comm& c) { return e.run_files_on(c, inputs, outputs); });
  }
  ReductionOrder reduction_order() const override { return ranks_[0]->reduction_order(); }
  int math_ulps() const override { return ranks_[0]->math_ulps(); }
  std::map<int, double> kernel_run_ms() const override { return ranks_[0]->kernel_run_ms(); }
  std::map<int, KernelExchange> kernel_exchange() const override {
    std::map<int, KernelExchange> sum = ranks_[0]->kernel_exchange();
    for (size_t r = 1; r < ranks_.size(); ++r)
      for (const auto& [id, x] : ranks_[r]->kernel_exchange()) {
        sum[id].sent += x.sent;
        sum[id].received += x.received;
      }
    return sum;
  }

private:
  std::vector<std::unique_ptr<RankExecutable>> ranks_;

  // f(rank's executable, its transport) on a thread per rank; every rank's
  // results, or error, must be rank 0's.
  template <class F> std::vector<Array> on_threads(F&& f) {
    size_t n = ranks_.size();
    auto comms = mpi::make_thread_comms(int(n));
    std::vector<std::vector<Array>> results(n);
    std::vector<std::exception_ptr> errors(n);
    auto rank = [&](size_t r) {
      try {
        results[r] = f(*ranks_[r], *comms[r]);
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
    // A stop asked for from outside (core/interrupt.h) ends ranks at
    // different points: the others then stop with "rank R stopped".
    bool failed = false;
    for (const std::exception_ptr& e : errors)
      failed = failed || e;
    if (failed && interrupt_requested()) throw Interrupted();
    // Every rank throws the error they agreed on (mpi/agree.h): identical,
    // or some rank's part went wrong outside the protocol.
    auto what = [](const std::exception_ptr& e) -> std::string {
      try {
        std::rethrow_exception(e);
      } catch (const Error& x) {
        return std::string(error_kind_name(x.kind())) + ": " + x.what();
      } catch (const std::exception& x) {
        return std::string("not a strata error: ") + x.what();
      }
    };
    for (size_t r = 1; r < n; ++r)
      if (errors[0] && errors[r] && what(errors[r]) != what(errors[0]))
        throw Error(ErrorKind::Resource, "mpi: rank " + std::to_string(r) +
                                             "'s error differs from "
                                             "rank 0's (an engine bug): " +
                                             what(errors[r]) + " against " + what(errors[0]));
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
};

class MpiThreadsEngine final : public RanksEngine {
public:
  MpiThreadsEngine(const Engine& local, int ranks, MpiOptions o)
      : RanksEngine(local), ranks_(ranks), options_(o) {}
  std::string name() const override { return "mpi:" + std::to_string(ranks_); }
  std::unique_ptr<Executable> compile(const Program& program,
                                      const CompileOptions& options) const override {
    require_no_target(options, name());
    return std::make_unique<ThreadRanksExecutable>(local_, program, options, options_, ranks_);
  }

private:
  int ranks_;
  MpiOptions options_;
};

} // namespace

std::vector<std::map<int, KernelExchange>> mpi_traffic(const Executable& e) {
  if (const auto* r = dynamic_cast<const RankExecutable*>(&e)) return {r->traffic()};
  if (const auto* t = dynamic_cast<const ThreadRanksExecutable*>(&e)) return t->traffic();
  return {};
}

bool agree_with_rank0(bool mine, uint64_t where) {
  Comm* world = mpi::world_comm();
  if (!world) return mine;
  mpi::Bytes b(1 + sizeof where);
  b[0] = std::byte(mine);
  std::memcpy(b.data() + 1, &where, sizeof where);
  std::vector<mpi::Bytes> all = world->allgather(b);
  for (size_t r = 0; r < all.size(); ++r)
    if (all[r].size() != b.size() || std::memcmp(all[r].data() + 1, b.data() + 1, sizeof where)) {
      // Some rank may be inside another collective: end the job.
      std::fprintf(stderr,
                   "strata: error: mpi: rank %zu is out of step with rank %d (an engine bug)\n", r,
                   world->rank());
      world->abandon();
    }
  return all[0][0] != std::byte{0};
}

MpiOptions MpiOptions::from_environment() {
  MpiOptions o;
  if (auto bytes = environment_bytes("STRATA_MPI_MIN_BLOCK_BYTES"))
    o.min_block_bytes = int64_t(std::min<uint64_t>(*bytes, INT64_MAX));
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
