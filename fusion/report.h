// What happened when a program ran: phase times (`--dump-phases`) and the
// per-kernel JSON report (`--report FILE.json`), like Accelerate's
// -ddump-phases.
//
// Every engine fills a PhaseTimes with the phases it has (parse, check,
// fuse, codegen, compile, transfer, run) and, per kernel of the kernel graph,
// a KernelTiming. The interpreter has no kernels of its own: its report lists
// the kernels of the graph with compile time 0, cache "n/a" and no run time.
// The formats are documented in docs/fusion.md.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/engine.h"
#include "fusion/kernel_graph.h"

namespace strata {

// Phases nest by name: `compile.codegen` is a part of `compile` (an engine's
// own compile phases, Executable::compile_report) and is not added again to
// the total, which sums the top-level phases only.
struct PhaseTimes {
  std::string engine;
  std::vector<std::pair<std::string, double>> phases; // name, milliseconds, in order
  // The command's wall time from its start to the report (set by the
  // command; negative when unknown): the top-level phases add up to nearly
  // all of it.
  double wall_ms = -1;

  // The milliseconds of `phase` (the first of that name), or -1 when it has
  // none (it did not run).
  double ms_of(const std::string& phase) const {
    for (const auto& [name, ms] : phases)
      if (name == phase) return ms;
    return -1;
  }
  // The sum of the top-level phases (names without a `.`).
  double total_ms() const {
    double total = 0;
    for (const auto& [name, ms] : phases)
      if (name.find('.') == std::string::npos) total += ms;
    return total;
  }

  // Runs f() and adds its wall time under `phase`; returns f's result.
  template <class F> decltype(auto) time(const std::string& phase, F&& f) {
    auto start = std::chrono::steady_clock::now();
    struct Add {
      PhaseTimes& t;
      const std::string& phase;
      std::chrono::steady_clock::time_point start;
      ~Add() {
        t.phases.emplace_back(phase, std::chrono::duration<double, std::milli>(
                                         std::chrono::steady_clock::now() - start)
                                         .count());
      }
    } add{*this, phase, start};
    return f();
  }
};

struct KernelTiming {
  double compile_ms = 0;
  std::string cache = "n/a"; // "hit", "miss" or "n/a"
  std::optional<double> run_ms;
  std::optional<KernelExchange> exchange; // a distributed engine's (docs/mpi.md)
};

// "phases (jit): parse 0.12 ms, check 0.03 ms, ..., compile 42.1 ms [codegen
// 10.2 ms, llvm 30.9 ms], run 5.0 ms; total 47.3 ms; wall 47.6 ms", one line per
// engine: each phase's parts in brackets after it, the total of the
// top-level phases, and the wall time when the command set it.
std::string phases_text(const std::vector<PhaseTimes>& engines);

// "exchange (this process's ranks): kernel 0 generate: rows, sent 0 B, received 0 B;
// ...", one line, when any kernel has a KernelExchange; else "".
std::string exchange_text(const KernelGraph& graph, const std::map<int, KernelTiming>& kernels);

// The JSON report of one program (see docs/fusion.md).
std::string report_json(const std::string& program, const KernelGraph& graph,
                        const std::vector<PhaseTimes>& engines,
                        const std::map<int, KernelTiming>& kernels);

} // namespace strata
