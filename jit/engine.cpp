// The jit engine: compile = build the kernel graph, then per kernel build its
// key and load its code (memory cache, disk cache, or its LLVM IR built and compiled);
// run = walk the graph like the tbb engine, calling the generated entries.
#include "jit/engine.h"

#include <chrono>

#include "core/overload.h"
#include "fusion/checks.h"
#include "fusion/fuse.h"
#include "fusion/graph_inputs.h"
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
    std::string target = target_description();
    for_each_kernel(graph_.body, [&](const Kernel& k) {
      if (std::holds_alternative<kn::Loop>(k.body)) return;
      auto t0 = std::chrono::steady_clock::now();
      int temp = temp_id(k);
      std::string key =
          kernel_key(kernel_text(graph_, k, temp, options_.order), options_.checked, target);
      // The IR is built only when neither cache has the kernel.
      LoadedKernel loaded = load_kernel(
          key, KernelSource{graph_, k, temp, [&] {
                              return generate_kernel_code(
                                  graph_, k, CodegenOptions{options_.checked, temp, options_.order},
                                  symbol_prefix(key));
                            }});
      CompiledKernel& c = kernels_[k.id];
      c.code = std::move(loaded.code);
      c.fns = std::move(loaded.entries);
      c.resident = std::move(loaded.resident);
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

  std::vector<Array> run(const std::vector<Array>& inputs) override {
    Runtime rt(graph_, table_size_, pool_);
    const KernelGraph& g = graph_;
    check_graph_inputs(g, inputs);
    for (size_t i = 0; i < inputs.size(); ++i)
      rt.set(g.inputs[i], inputs[i]);
    for (size_t i = 0; i < g.arrays.size(); ++i)
      if (g.arrays[i].origin == ManifestArray::Origin::Literal) rt.set(int(i), g.arrays[i].literal);
    block(rt, g.body);
    std::vector<Array> out;
    for (ArrayId id : g.outputs)
      out.push_back(rt.get(id));
    return out;
  }

  // Folds and scans run CompileOptions::order: chunk sizes on the host
  // (jit/kernels.cpp), lanes in the chunk entries (jit/fold_codegen.h).
  ReductionOrder reduction_order() const override { return options_.order; }
  // libmvec's functions are within 4 ulps of correctly rounded (glibc's
  // libm-test-ulps; docs/jit.md "Vector math library").
  int math_ulps() const override { return active_veclib() == Veclib::Libmvec ? 4 : 0; }
  const CompileReport& compile_report() const override { return report_; }

private:
  KernelGraph graph_;
  CompileOptions options_;
  size_t table_size_ = 0;
  std::map<int, CompiledKernel> kernels_;
  CompileReport report_;
  ArrayPool pool_; // large results of earlier runs, reused once dropped

  int temp_id(const Kernel& k) const { return int(graph_.arrays.size()) + k.id; }

  template <class F> static void for_each_kernel(const Block& b, const F& f) {
    for (const Kernel& k : b) {
      f(k);
      if (const auto* l = std::get_if<kn::Loop>(&k.body)) {
        for_each_kernel(l->cond, f);
        for_each_kernel(l->body, f);
      } else if (const auto* br = std::get_if<kn::Branch>(&k.body)) {
        for_each_kernel(br->then_block, f);
        for_each_kernel(br->else_block, f);
      }
    }
  }

  void block(Runtime& rt, const Block& b) const {
    for (const Kernel& k : b)
      kernel(rt, k);
  }

  void kernel(Runtime& rt, const Kernel& k) const {
    if (const auto* l = std::get_if<kn::Loop>(&k.body)) return loop(rt, k, *l);
    const CompiledKernel& c = kernels_.at(k.id);
    try {
      std::visit(Overload{[&](const kn::Generate& x) { run_generate(rt, c, k, x); },
                          [&](const kn::Fold& x) { run_fold(rt, c, k, x, options_.order); },
                          [&](const kn::FoldSeg& x) { run_foldseg(rt, c, k, x); },
                          [&](const kn::Scan& x) { run_scan(rt, c, k, x, options_.order); },
                          [&](const kn::Permute& x) { run_permute(rt, c, k, x, temp_id(k)); },
                          [&](const kn::Stencil& x) { run_stencil(rt, c, k, x); },
                          [&](const kn::Loop&) {},
                          [&](const kn::Branch& x) { branch(rt, c, k, x); }},
                 k.body);
    } catch (const Error& e) {
      rethrow_kernel_error(e, k);
    }
  }

  // awhile: the state arrays pass from one iteration to the next by reference.
  void loop(Runtime& rt, const Kernel& k, const kn::Loop& l) const {
    std::vector<Array> state;
    for (ArrayId id : l.init)
      state.push_back(rt.get(id));
    for (;;) {
      for (size_t i = 0; i < state.size(); ++i)
        rt.set(l.state[i], state[i]);
      block(rt, l.cond);
      if (!rt.get(l.cond_result).read(0, 0).get<bool>()) break;
      block(rt, l.body);
      for (size_t i = 0; i < state.size(); ++i)
        state[i] = rt.get(l.next[i]);
    }
    for (size_t i = 0; i < k.outputs.size(); ++i)
      rt.set(k.outputs[i], state[i]);
  }

  void branch(Runtime& rt, const CompiledKernel& c, const Kernel& k, const kn::Branch& b) const {
    bool cond = (rt.eval(c, *b.cond)[0] & 0xff) != 0;
    block(rt, cond ? b.then_block : b.else_block);
    const std::vector<ArrayId>& results = cond ? b.then_results : b.else_results;
    std::vector<Array> values;
    for (ArrayId id : results)
      values.push_back(rt.get(id));
    for (size_t i = 0; i < k.outputs.size(); ++i)
      rt.set(k.outputs[i], values[i]);
  }
};

class JitEngine final : public Engine {
public:
  std::string name() const override { return "jit"; }
  bool available(std::string&) const override { return true; }
  std::unique_ptr<Executable> compile(const Program& program,
                                      const CompileOptions& options) const override {
    return std::make_unique<JitExecutable>(
        build_kernel_graph(program, FusionOptions{options.fusion}), options);
  }
};

} // namespace

std::unique_ptr<Engine> make_jit_engine() {
  return std::make_unique<JitEngine>();
}

} // namespace strata
