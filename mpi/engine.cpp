// The mpi engine's executables: one rank's (RankExecutable, on a
// communicator), P ranks as threads (ThreadRanksExecutable), and the two
// engines over them (docs/mpi.md).
#include "mpi/engine.h"

#include <algorithm>
#include <cstdlib>
#include <thread>

#include "fusion/fuse.h"
#include "fusion/graph_run.h"
#include "mpi/rank_runner.h"

namespace strata {
namespace {

using mpi::Comm;

// Every rank must be given the same inputs: their types and shapes, and the
// contents of those held whole (hashed), are compared with rank 0's; the
// first that differs is named.
void agree_on_inputs(Comm& comm, const std::vector<Array>& inputs, const KernelGraph& g) {
  std::string mine;
  for (const Array& a : inputs) {
    std::string shape;
    for (int64_t e : a.shape())
      shape += (shape.empty() ? "" : ", ") + std::to_string(e);
    uint64_t h = 1469598103934665603ull; // FNV-1a
    if (a.rank() == 0 || mpi::bytes_of(a.elem_type(), a.shape()) < (1u << 16))
      for (std::byte b : mpi::pack(a))
        h = (h ^ uint64_t(b)) * 1099511628211ull;
    mine += a.elem_type().str() + "[" + shape + "]\t" + std::to_string(h) + "\n";
  }
  auto text = [](const mpi::Bytes& b) {
    return std::string(reinterpret_cast<const char*>(b.data()), b.size());
  };
  auto lines = [](const std::string& s) {
    std::vector<std::string> v;
    for (size_t at = 0, nl; (nl = s.find('\n', at)) != std::string::npos; at = nl + 1)
      v.push_back(s.substr(at, nl - at));
    return v;
  };
  std::vector<mpi::Bytes> all =
      comm.allgather(mpi::Bytes(reinterpret_cast<const std::byte*>(mine.data()),
                                reinterpret_cast<const std::byte*>(mine.data() + mine.size())));
  std::vector<std::string> first = lines(text(all[0]));
  for (size_t r = 1; r < all.size(); ++r) {
    std::vector<std::string> other = lines(text(all[r]));
    std::string where = "mpi: rank " + std::to_string(r) + " was given ";
    if (other.size() != first.size())
      throw Error(ErrorKind::Input, where + std::to_string(other.size()) + " inputs, rank 0 " +
                                        std::to_string(first.size()));
    for (size_t i = 0; i < first.size(); ++i) {
      if (other[i] == first[i]) continue;
      const ManifestArray& p = g.arrays[size_t(g.inputs.at(i))];
      std::string what = other[i].substr(0, other[i].find('\t'));
      std::string was = first[i].substr(0, first[i].find('\t'));
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
      : state_{local, o, m, build_kernel_graph(p, FusionOptions{o.fusion}), {}, {}} {}

  std::vector<Array> run_on(Comm& comm, const std::vector<Array>& inputs) {
    agree_on_inputs(comm, inputs, state_.graph);
    state_.traffic.clear();
    times_.clear();
    mpi::RankRunner runner(state_, comm);
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
  std::map<int, KernelExchange> kernel_exchange() const override { return state_.traffic; }
  const std::map<int, KernelExchange>& traffic() const { return state_.traffic; }

private:
  mpi::RankState state_;
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
  std::vector<std::map<int, KernelExchange>> traffic() const {
    std::vector<std::map<int, KernelExchange>> v;
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

std::vector<std::map<int, KernelExchange>> mpi_traffic(const Executable& e) {
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
