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

#include "fusion/kernel_graph.h"

namespace strata {

struct PhaseTimes {
  std::string engine;
  std::vector<std::pair<std::string, double>> phases; // name, milliseconds, in order

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
};

// "phases (interp): parse 0.12 ms, check 0.03 ms, ..." one line per engine.
std::string phases_text(const std::vector<PhaseTimes>& engines);

// The JSON report of one program (see docs/fusion.md).
std::string report_json(const std::string& program, const KernelGraph& graph,
                        const std::vector<PhaseTimes>& engines,
                        const std::map<int, KernelTiming>& kernels);

} // namespace strata
