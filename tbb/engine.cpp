#include "tbb/engine.h"

#include <mutex>

#include "core/overload.h"
#include "fusion/fuse.h"
#include "fusion/graph_run.h"
#include "tbb/kernels.h"

namespace strata {
namespace {
using namespace tbbe;

// The tbb engine's part of running a kernel graph (fusion/graph_run.h):
// arrays are plain Arrays in the Runtime, each compute kernel is its
// tbb/*_kernel.cpp, and awhile's state is double-buffered: kernels in a loop
// allocate their outputs through Runtime::allocate, which hands back the
// array the same kernel produced two iterations before once nothing refers
// to it (no allocation per iteration after the first two).
class Executor {
public:
  using Value = Array;

  Executor(const KernelGraph& g, const FunctionTable& f, const ReductionOrder& order,
           Runtime::Pool pool)
      : rt_(g, f, order) {
    rt_.adopt(std::move(pool));
  }
  Runtime::Pool release() { return rt_.release(); }

  std::vector<Array> run(const std::vector<Array>& inputs, KernelTimes& times) {
    return run_kernel_graph(rt_.graph, inputs, *this, &times);
  }

  Array bind_input(const Array& a) { return a; }
  void set(ArrayId id, Array a) { rt_.bind(id, std::move(a)); }
  Array get(ArrayId id) { return rt_.get(id); }
  Array result(ArrayId id) { return rt_.get(id); }
  void compute(const Kernel& k) {
    std::visit(Overload{[&](const kn::Generate& x) { run_generate(rt_, k, x); },
                        [&](const kn::Fold& x) { run_fold(rt_, k, x); },
                        [&](const kn::FoldSeg& x) { run_foldseg(rt_, k, x); },
                        [&](const kn::Scan& x) { run_scan(rt_, k, x); },
                        [&](const kn::Permute& x) { run_permute(rt_, k, x); },
                        [&](const kn::Stencil& x) { run_stencil(rt_, k, x); },
                        [&](const kn::Loop&) {}, [&](const kn::Branch&) {}},
               k.body);
  }
  bool condition(const Kernel&, const kn::Branch& b) { return rt_.eval(*b.cond)[0].get<bool>(); }
  bool loop_continues(ArrayId cond) { return rt_.get(cond).read(0, 0).get<bool>(); }
  void enter_loop() { ++rt_.loop_depth; }
  void leave_loop() { --rt_.loop_depth; }

private:
  Runtime rt_;
};

class TbbExecutable final : public Executable {
public:
  TbbExecutable(KernelGraph g, const ReductionOrder& order)
      : graph_(std::move(g)), functions_(graph_), order_(order) {}
  // Runs may be concurrent: each takes the pool of reusable storage (or
  // none, if another run holds it) and gives it back when it ends.
  std::vector<Array> run(const std::vector<Array>& inputs) override {
    Runtime::Pool pool;
    {
      std::lock_guard lock(mutex_);
      pool = std::move(pool_);
      pool_.clear();
    }
    Executor ex(graph_, functions_, order_, std::move(pool));
    KernelTimes times;
    std::vector<Array> out = ex.run(inputs, times);
    Runtime::Pool kept = ex.release();
    std::lock_guard lock(mutex_);
    pool_ = std::move(kept);
    kernel_ms_ = std::move(times);
    return out;
  }
  std::map<int, double> kernel_run_ms() const override {
    std::lock_guard lock(mutex_);
    return kernel_ms_;
  }
  // The order it runs: the one it was compiled with (tbb/fold_kernel.cpp, tbb/scan_kernel.cpp).
  ReductionOrder reduction_order() const override { return order_; }

private:
  mutable std::mutex mutex_;
  Runtime::Pool pool_;
  KernelTimes kernel_ms_; // of the last run that finished
  KernelGraph graph_;
  FunctionTable functions_; // refers to graph_: declared after it
  ReductionOrder order_;
};

class TbbEngine final : public Engine {
public:
  std::string name() const override { return "tbb"; }
  bool available(std::string&) const override { return true; }
  std::unique_ptr<Executable> compile(const Program& program,
                                      const CompileOptions& options) const override {
    require_no_target(options, name());
    return std::make_unique<TbbExecutable>(
        build_kernel_graph(program, FusionOptions{options.fusion}), options.order);
  }
};

} // namespace

std::unique_ptr<Engine> make_tbb_engine() {
  return std::make_unique<TbbEngine>();
}

} // namespace strata
