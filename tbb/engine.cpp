#include "tbb/engine.h"

#include <mutex>

#include "core/overload.h"
#include "fusion/checks.h"
#include "fusion/fuse.h"
#include "fusion/graph_inputs.h"
#include "tbb/kernels.h"

namespace strata {
namespace {
using namespace tbbe;

class Executor {
public:
  Executor(const KernelGraph& g, const FunctionTable& f, const ReductionOrder& order,
           Runtime::Pool pool)
      : rt_(g, f, order) {
    rt_.adopt(std::move(pool));
  }
  Runtime::Pool release() { return rt_.release(); }

  std::vector<Array> run(const std::vector<Array>& inputs) {
    const KernelGraph& g = rt_.graph;
    check_graph_inputs(g, inputs);
    for (size_t i = 0; i < inputs.size(); ++i)
      rt_.bind(g.inputs[i], inputs[i]);
    for (size_t i = 0; i < g.arrays.size(); ++i)
      if (g.arrays[i].origin == ManifestArray::Origin::Literal)
        rt_.bind(ArrayId(i), g.arrays[i].literal);
    block(g.body);
    std::vector<Array> out;
    for (ArrayId id : g.outputs)
      out.push_back(rt_.get(id));
    return out;
  }

private:
  Runtime rt_;

  void block(const Block& b) {
    for (const Kernel& k : b)
      kernel(k);
  }

  void kernel(const Kernel& k) {
    try {
      std::visit(Overload{[&](const kn::Generate& x) { run_generate(rt_, k, x); },
                          [&](const kn::Fold& x) { run_fold(rt_, k, x); },
                          [&](const kn::FoldSeg& x) { run_foldseg(rt_, k, x); },
                          [&](const kn::Scan& x) { run_scan(rt_, k, x); },
                          [&](const kn::Permute& x) { run_permute(rt_, k, x); },
                          [&](const kn::Stencil& x) { run_stencil(rt_, k, x); },
                          [&](const kn::Loop& x) { loop(k, x); },
                          [&](const kn::Branch& x) { branch(k, x); }},
                 k.body);
    } catch (const Error& e) {
      rethrow_kernel_error(e, k);
    }
  }

  // awhile: the state arrays are passed from one iteration to the next by
  // reference (arrays are immutable, so no copies are made). Kernels in the
  // loop allocate their outputs through Runtime::allocate, which hands back
  // the array the same kernel produced two iterations before once nothing
  // refers to it: double buffering, no allocation per iteration after the
  // first two.
  void loop(const Kernel& k, const kn::Loop& l) {
    ++rt_.loop_depth;
    struct Leave {
      int& depth;
      ~Leave() { --depth; }
    } leave{rt_.loop_depth};
    std::vector<Array> state;
    for (ArrayId id : l.init)
      state.push_back(rt_.get(id));
    for (;;) {
      for (size_t i = 0; i < state.size(); ++i)
        rt_.bind(l.state[i], state[i]);
      block(l.cond);
      if (!rt_.get(l.cond_result).read(0, 0).get<bool>()) break;
      block(l.body);
      for (size_t i = 0; i < state.size(); ++i)
        state[i] = rt_.get(l.next[i]);
    }
    for (size_t i = 0; i < k.outputs.size(); ++i)
      rt_.bind(k.outputs[i], state[i]);
  }

  void branch(const Kernel& k, const kn::Branch& b) {
    bool c = rt_.eval(*b.cond)[0].get<bool>();
    block(c ? b.then_block : b.else_block);
    const std::vector<ArrayId>& results = c ? b.then_results : b.else_results;
    std::vector<Array> values;
    for (ArrayId id : results)
      values.push_back(rt_.get(id));
    for (size_t i = 0; i < k.outputs.size(); ++i)
      rt_.bind(k.outputs[i], values[i]);
  }
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
    std::vector<Array> out = ex.run(inputs);
    Runtime::Pool kept = ex.release();
    std::lock_guard lock(mutex_);
    pool_ = std::move(kept);
    return out;
  }
  // The order it runs: the one it was compiled with (tbb/fold_kernel.cpp, tbb/scan_kernel.cpp).
  ReductionOrder reduction_order() const override { return order_; }

private:
  std::mutex mutex_;
  Runtime::Pool pool_;
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
    return std::make_unique<TbbExecutable>(
        build_kernel_graph(program, FusionOptions{options.fusion}), options.order);
  }
};

} // namespace

std::unique_ptr<Engine> make_tbb_engine() {
  return std::make_unique<TbbEngine>();
}

} // namespace strata
