// The jit engine: compile = build the kernel graph, then per kernel build its
// key and load its code (memory cache, disk cache, or its LLVM IR built and compiled);
// run = fusion/graph_run.h with a runner that calls the generated entries.
#include "jit/engine.h"

#include <chrono>
#include <mutex>

#include "core/error.h"
#include "core/overload.h"
#include "fusion/fuse.h"
#include "fusion/graph_run.h"
#include "jit/backend.h"
#include "jit/kernels.h"
#include "jit/key.h"

namespace strata {
namespace {
using namespace jit;

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

class JitExecutable final : public Executable {
public:
  JitExecutable(KernelGraph g, const CompileOptions& o) : graph_(std::move(g)), options_(o) {
    int max_id = -1;
    for_each_kernel(graph_.body, [&](const Kernel& k) { max_id = std::max(max_id, k.id); });
    table_size_ = graph_.arrays.size() + size_t(max_id + 1);
    double codegen_ms = 0, optimise_ms = 0, emit_ms = 0, compile_ms = 0;
    std::string target = target_description(veclib_);
    for_each_kernel(graph_.body, [&](const Kernel& k) {
      if (std::holds_alternative<kn::Loop>(k.body)) return;
      auto t0 = std::chrono::steady_clock::now();
      int temp = temp_id(k);
      std::string key =
          kernel_key(kernel_text(graph_, k, temp, options_.order), options_.checked, target);
      // The IR is built only when neither cache has the kernel.
      LoadedKernel loaded =
          load_kernel(key, KernelSource{graph_, k, temp,
                                        [&](bool quick_tier) {
                                          return generate_kernel_code(
                                              graph_, k,
                                              CodegenOptions{options_.checked, temp, options_.order,
                                                             quick_tier},
                                              symbol_prefix(key));
                                        },
                                        veclib_});
      CompiledKernel& c = kernels_[k.id];
      c.code = std::move(loaded.code);
      c.tiers = std::move(loaded.tiers);
      if (const auto* gen = std::get_if<kn::Generate>(&k.body)) c.view = leaf_view(graph_, *gen);
      double total = ms_since(t0);
      codegen_ms += loaded.codegen_ms;
      optimise_ms += loaded.optimise_ms;
      emit_ms += loaded.emit_ms;
      compile_ms += total - loaded.codegen_ms - loaded.llvm_ms;
      report_.kernels.push_back(KernelCompileInfo{k.id, total, loaded.cache});
    });
    // optimise and emit: CPU summed over parts compiled at the same time;
    // "compile" is the rest: keys, cache lookups, loading objects into the JIT.
    report_.phases = {{"codegen", codegen_ms},
                      {"optimise", optimise_ms},
                      {"emit", emit_ms},
                      {"compile", compile_ms}};
  }

  // Waits for the optimised compiles of its kernels still queued, so that
  // they reach the disk cache and no compile outlives the program's use.
  ~JitExecutable() override {
    for (const auto& [id, c] : kernels_)
      c.tiers->wait();
  }

  bool settle() override {
    bool tiered = false;
    for (const auto& [id, c] : kernels_) {
      std::string why = c.tiers->wait();
      tiered = tiered || c.tiers->quick_first();
      if (!why.empty() && active_tier_mode() != TierMode::Quick)
        throw Error(ErrorKind::Resource,
                    "jit: kernel " + std::to_string(id) + " keeps its quick tier: " + why);
    }
    return tiered && active_tier_mode() != TierMode::Quick;
  }

  std::vector<Array> run(const std::vector<Array>& inputs) override {
    Runtime rt(graph_, table_size_, pool_);
    Runner runner{*this, rt};
    KernelTimes times;
    std::vector<Array> out = run_kernel_graph(graph_, inputs, runner, &times);
    std::lock_guard lock(times_mutex_);
    kernel_ms_ = std::move(times);
    return out;
  }
  std::map<int, double> kernel_run_ms() const override {
    std::lock_guard lock(times_mutex_);
    return kernel_ms_;
  }

  // Folds and scans run CompileOptions::order: chunk sizes on the host
  // (jit/fold_kernel.cpp, jit/scan_kernel.cpp), lanes in the chunk entries (jit/fold_codegen.h).
  ReductionOrder reduction_order() const override { return options_.order; }
  // libmvec's functions are within 4 ulps of correctly rounded (glibc's
  // libm-test-ulps; docs/jit.md "Vector math library").
  int math_ulps() const override { return veclib_ == Veclib::Libmvec ? kFastMathUlps : 0; }
  const CompileReport& compile_report() const override { return report_; }

private:
  KernelGraph graph_;
  CompileOptions options_;
  Veclib veclib_ = veclib_for(options_.math);
  size_t table_size_ = 0;
  std::map<int, CompiledKernel> kernels_;
  CompileReport report_;
  mutable std::mutex times_mutex_;
  KernelTimes kernel_ms_; // of the last run that finished
  ArrayPool pool_;        // large results of earlier runs, reused once dropped

  int temp_id(const Kernel& k) const { return int(graph_.arrays.size()) + k.id; }

  // The jit's part of running the graph (fusion/graph_run.h): arrays are
  // Arrays in the Runtime's table, each compute kernel calls its generated
  // entries (jit/stencil_kernel.cpp).
  struct Runner {
    using Value = Array;
    const JitExecutable& exe;
    Runtime& rt;

    Array bind_input(const Array& a) { return a; }
    void set(ArrayId id, Array a) { rt.set(id, std::move(a)); }
    Array get(ArrayId id) { return rt.get(id); }
    Array result(ArrayId id) { return rt.get(id); }
    bool loop_continues(ArrayId cond) { return rt.get(cond).read(0, 0).get<bool>(); }
    bool condition(const Kernel& k, const kn::Branch& b) {
      return (rt.eval(exe.kernels_.at(k.id), *b.cond)[0] & 0xff) != 0;
    }
    void compute(const Kernel& k) {
      const CompiledKernel& c = exe.kernels_.at(k.id);
      const ReductionOrder& order = exe.options_.order;
      std::visit(Overload{[&](const kn::Generate& x) { run_generate(rt, c, k, x); },
                          [&](const kn::Fold& x) { run_fold(rt, c, k, x, order); },
                          [&](const kn::FoldSeg& x) { run_foldseg(rt, c, k, x); },
                          [&](const kn::Scan& x) { run_scan(rt, c, k, x, order); },
                          [&](const kn::Permute& x) { run_permute(rt, c, k, x, exe.temp_id(k)); },
                          [&](const kn::Stencil& x) { run_stencil(rt, c, k, x); },
                          [&](const kn::Loop&) {}, [&](const kn::Branch&) {}},
                 k.body);
    }
  };
};

class JitEngine final : public Engine {
public:
  std::string name() const override { return "jit"; }
  bool available(std::string&) const override { return true; }
  std::jthread prepare() const override { return std::jthread(prepare_backend); }
  std::unique_ptr<Executable> compile(const Program& program,
                                      const CompileOptions& options) const override {
    require_no_target(options, name());
    return std::make_unique<JitExecutable>(
        build_kernel_graph(program, FusionOptions{options.fusion}), options);
  }
};

} // namespace

std::unique_ptr<Engine> make_jit_engine() {
  return std::make_unique<JitEngine>();
}

} // namespace strata
