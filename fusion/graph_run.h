// What a kernel graph means at run time, written once for every runner of
// kernel graphs (the tbb, jit and cuda engines and the test evaluator,
// oracle/graph_eval.cpp). A runner supplies only what it does per kernel and
// how it holds arrays; the order of work, the loop and branch protocol and
// the error attribution are the same everywhere:
//
//  1. The inputs are checked against the graph's parameters
//     (check_graph_inputs) and bound in order; then every literal array.
//  2. The body's kernels run in order. A compute kernel (generate, fold,
//     foldseg, scan, permute, stencil) is the runner's `compute`.
//  3. awhile (kn::Loop): the state starts as the arrays `init`. Each
//     iteration binds the state to `state`, runs `cond`, and reads the bool
//     array `cond_result`; when false the loop ends, else `body` runs and the
//     arrays `next` are the new state. The loop's outputs are the final
//     state. State passes by reference (arrays are immutable): no copies.
//  4. acond (kn::Branch): the runner evaluates the condition; the chosen
//     block runs and its results are the kernel's outputs.
//  5. An error raised while a kernel runs passes through
//     rethrow_kernel_error (an allocation that failed without a position
//     names the kernel's first operation).
//  6. The results are the graph's outputs, in order.
//  7. With a KernelTimes, each compute kernel's wall time is added under
//     its id (summed over an awhile's iterations): --report's run_ms.
//  8. A stop asked for from outside (core/interrupt.h) throws Interrupted
//     before the next compute kernel.
//
// A runner R provides:
//   using Value = ...;                           an array as R holds it
//   Value bind_input(const Array&);              an input or literal (R may upload it)
//   void set(ArrayId, Value);  Value get(ArrayId);
//   void compute(const Kernel&);                 any kernel but Loop and Branch
//   bool condition(const Kernel&, const kn::Branch&);
//   bool loop_continues(ArrayId cond_result);    reads an awhile's condition
//   Array result(ArrayId);                       an output (R may download it;
//                                                not for run_kernel_graph_bound)
// and may provide:
//   void drop(ArrayId);                          a loop's condition and `next` arrays
//                                                are no longer needed under that id
//                                                (only arrays the loop's own kernels
//                                                made: never its state, nor an array
//                                                from outside it that cond or body
//                                                returns as it is)
//   void enter_loop(); void leave_loop();        around each awhile
#pragma once

#include <chrono>
#include <map>

#include <vector>

#include "core/array.h"
#include "core/interrupt.h"
#include "fusion/checks.h"
#include "fusion/graph_inputs.h"
#include "fusion/kernel_graph.h"

namespace strata {

// Calls f on every kernel of `b`, the loops' and branches' own blocks after
// the kernel that holds them (cond, body; then, else).
template <class F> void for_each_kernel(const Block& b, const F& f) {
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

// Milliseconds of wall time by compute kernel id.
using KernelTimes = std::map<int, double>;

template <class Runner> class GraphRun {
public:
  using Value = typename Runner::Value;

  GraphRun(const KernelGraph& g, Runner& r, KernelTimes* times) : g_(g), r_(r), times_(times) {}

  std::vector<Array> run(const std::vector<Array>& inputs) {
    check_graph_inputs(g_, inputs);
    std::vector<Value> bound;
    for (const Array& a : inputs)
      bound.push_back(r_.bind_input(a));
    run_bound(std::move(bound));
    std::vector<Array> out;
    for (ArrayId id : g_.outputs)
      out.push_back(r_.result(id));
    return out;
  }

  // Steps 2-5 on inputs already checked and bound; the caller takes the
  // outputs (r_.get of g_.outputs).
  void run_bound(std::vector<Value> inputs) {
    for (size_t i = 0; i < inputs.size(); ++i)
      r_.set(g_.inputs[i], std::move(inputs[i]));
    for (size_t i = 0; i < g_.arrays.size(); ++i)
      if (g_.arrays[i].origin == ManifestArray::Origin::Literal)
        r_.set(ArrayId(i), r_.bind_input(g_.arrays[i].literal));
    block(g_.body);
  }

private:
  const KernelGraph& g_;
  Runner& r_;
  KernelTimes* times_;

  void block(const Block& b) {
    for (const Kernel& k : b)
      kernel(k);
  }

  void kernel(const Kernel& k) {
    try {
      if (const auto* l = std::get_if<kn::Loop>(&k.body))
        loop(k, *l);
      else if (const auto* br = std::get_if<kn::Branch>(&k.body))
        branch(k, *br);
      else
        compute(k);
    } catch (const Error& e) {
      rethrow_kernel_error(e, k);
    }
  }

  void compute(const Kernel& k) {
    throw_if_interrupted();
    if (!times_) return r_.compute(k);
    auto start = std::chrono::steady_clock::now();
    r_.compute(k);
    (*times_)[k.id] +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }

  void drop(ArrayId id) {
    if constexpr (requires { r_.drop(id); }) r_.drop(id);
  }

  void loop(const Kernel& k, const kn::Loop& l) {
    if constexpr (requires { r_.enter_loop(); }) r_.enter_loop();
    struct Leave {
      Runner& r;
      ~Leave() {
        if constexpr (requires { r.leave_loop(); }) r.leave_loop();
      }
    } leave{r_};
    // The arrays the loop's own kernels make: the only ones it may let go.
    std::vector<bool> made(g_.arrays.size(), false);
    auto mark = [&](const Kernel& inner) {
      for (ArrayId id : inner.outputs)
        made[size_t(id)] = true;
    };
    for_each_kernel(l.cond, mark);
    for_each_kernel(l.body, mark);
    auto drop_made = [&](ArrayId id) {
      if (made[size_t(id)]) drop(id);
    };
    std::vector<Value> state;
    for (ArrayId id : l.init)
      state.push_back(r_.get(id));
    for (;;) {
      for (size_t i = 0; i < state.size(); ++i)
        r_.set(l.state[i], std::move(state[i]));
      state.clear();
      block(l.cond);
      bool go = r_.loop_continues(l.cond_result);
      drop_made(l.cond_result);
      if (!go) break;
      block(l.body);
      for (ArrayId id : l.next)
        state.push_back(r_.get(id));
      for (ArrayId id : l.next)
        drop_made(id);
    }
    for (size_t i = 0; i < k.outputs.size(); ++i)
      r_.set(k.outputs[i], r_.get(l.state[i]));
  }

  void branch(const Kernel& k, const kn::Branch& b) {
    bool c = r_.condition(k, b);
    block(c ? b.then_block : b.else_block);
    const std::vector<ArrayId>& results = c ? b.then_results : b.else_results;
    std::vector<Value> values;
    for (ArrayId id : results)
      values.push_back(r_.get(id));
    for (size_t i = 0; i < k.outputs.size(); ++i)
      r_.set(k.outputs[i], std::move(values[i]));
  }
};

// Runs `g` on `inputs` with `runner` doing the kernels (the protocol above);
// each compute kernel's time is added to `times` when given.
template <class Runner>
std::vector<Array> run_kernel_graph(const KernelGraph& g, const std::vector<Array>& inputs,
                                    Runner& runner, KernelTimes* times = nullptr) {
  return GraphRun<Runner>(g, runner, times).run(inputs);
}

// The same on inputs the runner holds already (checked by the caller with
// check_graph_input_types): returns the outputs as the runner holds them.
template <class Runner>
std::vector<typename Runner::Value>
run_kernel_graph_bound(const KernelGraph& g, std::vector<typename Runner::Value> inputs,
                       Runner& runner, KernelTimes* times = nullptr) {
  GraphRun<Runner>(g, runner, times).run_bound(std::move(inputs));
  std::vector<typename Runner::Value> out;
  for (ArrayId id : g.outputs)
    out.push_back(runner.get(id));
  return out;
}

} // namespace strata
