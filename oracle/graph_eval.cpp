#include "oracle/graph_eval.h"

#include <chrono>

#include "core/check.h"
#include "fusion/fuse.h"
#include "fusion/graph_run.h"
#include "interpreter/interpreter.h"

namespace strata {
namespace {

class Evaluator {
public:
  Evaluator(const KernelGraph& g, GraphRunStats* stats, const ReductionOrder& order)
      : g_(g), vals_(g.arrays.size()), has_(g.arrays.size(), false), stats_(stats) {
    options_.order = order;
  }

  std::vector<Array> run(const std::vector<Array>& inputs) {
    return run_kernel_graph(g_, inputs, *this);
  }

  // The runner's part (fusion/graph_run.h).
  using Value = Array;
  Array bind_input(const Array& a) { return a; }
  void set(ArrayId id, Array a) {
    vals_[size_t(id)] = std::move(a);
    has_[size_t(id)] = true;
  }
  Array get(ArrayId id) const { return vals_[size_t(id)]; }
  Array result(ArrayId id) const { return vals_[size_t(id)]; }
  bool loop_continues(ArrayId cond) const { return get(cond).read(0, 0).get<bool>(); }
  bool condition(const Kernel&, const kn::Branch& b) { return eval(b.cond).read(0, 0).get<bool>(); }
  void compute(const Kernel& k) {
    auto start = std::chrono::steady_clock::now();
    AccPtr body = std::visit([&](const auto& x) { return kernel_body(x); }, k.body);
    // The kernel's operation is its last source operation: errors it raises
    // (fold1 over an empty row, ...) carry that operation's position.
    if (!k.ops.empty()) body->loc = k.ops.back().loc;
    std::vector<Array> results = run_acc(body);
    for (size_t i = 0; i < k.outputs.size(); ++i)
      set(k.outputs[i], results.at(i));
    if (stats_) {
      stats_->kernel_ms[k.id] +=
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      stats_->kernel_runs[k.id] += 1;
    }
  }

private:
  const KernelGraph& g_;
  std::vector<Array> vals_;
  std::vector<bool> has_;
  GraphRunStats* stats_;
  InterpreterOptions options_;

  AccPtr ref(ArrayId id) const {
    auto r = make_acc(ac::Var{g_.arrays[size_t(id)].name});
    r->type = g_.arrays[size_t(id)].type;
    return r;
  }

  // Runs `body` as a program whose parameters are the arrays computed so far.
  std::vector<Array> run_acc(AccPtr body) {
    Program p;
    std::vector<Array> inputs;
    for (size_t i = 0; i < vals_.size(); ++i) {
      if (!has_[i]) continue;
      p.params.push_back(Param{g_.arrays[i].name, g_.arrays[i].type, {}});
      inputs.push_back(vals_[i]);
    }
    p.body = std::move(body);
    check_program(p); // also checks that fusion produced well-typed code
    return interpret(p, inputs, options_);
  }

  Array eval(const ExpPtr& e) { return run_acc(make_acc(ac::Unit{e}))[0]; }

  static Index index_value(const Array& a) {
    Index ix;
    for (size_t l = 0; l < a.num_leaves(); ++l)
      ix.push_back(a.read(l, 0).get<int64_t>());
    return ix;
  }

  void run_checks(const Delayed& d) {
    run_delayed_checks(d, [&](const ExpPtr& e) { return index_value(eval(e)); });
  }

  static AccPtr gen(const Delayed& d) { return make_acc(ac::Generate{d.shape, d.elem}); }

  AccPtr kernel_body(const kn::Generate& x) {
    run_checks(x.body);
    return gen(x.body);
  }
  AccPtr kernel_body(const kn::Fold& x) {
    run_checks(x.input);
    return make_acc(ac::Fold{x.f, x.seed, gen(x.input)});
  }
  AccPtr kernel_body(const kn::FoldSeg& x) {
    run_checks(x.input);
    return make_acc(ac::FoldSeg{x.f, x.seed, gen(x.input), ref(x.segs)});
  }
  AccPtr kernel_body(const kn::Scan& x) {
    run_checks(x.input);
    return make_acc(ac::Scan{x.kind, x.f, x.seed, gen(x.input)});
  }
  AccPtr kernel_body(const kn::Permute& x) {
    run_checks(x.defaults);
    run_checks(x.source);
    return make_acc(ac::Permute{x.combine, gen(x.defaults), x.target, gen(x.source)});
  }
  AccPtr kernel_body(const kn::Stencil& x) {
    return make_acc(ac::Stencil{x.window, x.boundary, x.f, ref(x.input)});
  }
  AccPtr kernel_body(const kn::Loop&) { return nullptr; }
  AccPtr kernel_body(const kn::Branch&) { return nullptr; }
};

class GraphExecutable final : public Executable {
public:
  GraphExecutable(KernelGraph g, const ReductionOrder& order)
      : graph_(std::move(g)), order_(order) {}
  std::vector<Array> run(const std::vector<Array>& inputs) override {
    return evaluate_kernel_graph(graph_, inputs, nullptr, order_);
  }
  ReductionOrder reduction_order() const override { return order_; }

private:
  KernelGraph graph_;
  ReductionOrder order_;
};

class GraphEngine final : public Engine {
public:
  std::string name() const override { return "graph"; }
  bool available(std::string&) const override { return true; }
  std::unique_ptr<Executable> compile(const Program& program,
                                      const CompileOptions& options) const override {
    require_no_target(options, name());
    return std::make_unique<GraphExecutable>(
        build_kernel_graph(program, FusionOptions{options.fusion}), options.order);
  }
};

} // namespace

std::vector<Array> evaluate_kernel_graph(const KernelGraph& graph, const std::vector<Array>& inputs,
                                         GraphRunStats* stats, const ReductionOrder& order) {
  return Evaluator(graph, stats, order).run(inputs);
}

std::unique_ptr<Engine> make_graph_engine() {
  return std::make_unique<GraphEngine>();
}

} // namespace strata
