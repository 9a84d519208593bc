// strata_bench: every workload of docs/bench.md (bench/workloads.h) on every
// registered engine, fused and unfused, with 1 thread and all threads for the
// TBB-scheduled engines, beside the hand-written -O3 and oneTBB baselines.
//
// Benchmark names are WORKLOAD/CONFIG, CONFIG one of
//   cpp_o3 | cpp_tbb/threads:{1,all} | interp | ENGINE/{fused,unfused}[/threads:{1,all}]
//   ENGINE/{fused,unfused}/compile   (Engine::compile alone; runs never include it)
// and every run benchmark reports items (work units) and bytes, so figures at
// the interpreter's reduced size compare per element (scripts/bench-report).
// Each benchmark first checks its result against the hand-written baseline
// (bench/check.h) and stops with an error on a mismatch.
//
// --smoke (or STRATA_BENCH_SMOKE=1): tiny sizes, one iteration each (ctest).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>

#include <tbb/global_control.h>
#include <tbb/info.h>

#include "bench/anchors.h"
#include "bench/check.h"
#include "bench/workloads.h"
#include "core/check.h"
#include "core/error.h"
#include "core/parser.h"
#include "oracle/registry.h"

namespace strata::bench {
namespace {

bool g_smoke = false;

// Inputs and the reference result of one workload at one size. Only the
// current workload's data is kept (benchmarks run in registration order).
struct Data {
  std::vector<Array> inputs;
  std::vector<Array> expected; // the hand-written TBB baseline, all threads
};

Data& data(const Workload& w, int64_t n) {
  static std::map<std::pair<std::string, int64_t>, Data> cache;
  auto key = std::make_pair(w.name, n);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  for (auto i = cache.begin(); i != cache.end();)
    i = i->first.first == w.name ? std::next(i) : cache.erase(i);
  Data d;
  d.inputs = w.inputs(n);
  d.expected = w.outputs(n);
  w.cpp_tbb(d.inputs, d.expected);
  return cache.emplace(key, std::move(d)).first->second;
}

std::optional<tbb::global_control> limit_threads(int threads) {
  std::optional<tbb::global_control> c;
  if (threads > 0) c.emplace(tbb::global_control::max_allowed_parallelism, size_t(threads));
  return c;
}

void set_counters(benchmark::State& state, const Workload& w, int64_t n) {
  state.SetItemsProcessed(int64_t(double(state.iterations()) * w.items(n)));
  state.SetBytesProcessed(int64_t(double(state.iterations()) * w.bytes(n)));
  state.counters["n"] = double(n);
}

void run_baseline(benchmark::State& state, const Workload* w, bool tbb, int threads, int64_t n) {
  auto limit = limit_threads(threads);
  Data& d = data(*w, n);
  std::vector<Array> out = w->outputs(n);
  Baseline f = tbb ? w->cpp_tbb : w->cpp_o3;
  f(d.inputs, out);
  if (auto diff = check_results(d.expected, out, w->rtol)) {
    state.SkipWithError(("wrong result: " + *diff).c_str());
    return;
  }
  for (auto _ : state) {
    f(d.inputs, out);
    benchmark::ClobberMemory();
  }
  set_counters(state, *w, n);
}

// An anchor (bench/anchors.h): compared with the hand-written TBB baseline
// (a difference beyond the workload's tolerance becomes the label), then
// timed like a baseline.
void run_anchor(benchmark::State& state, const Workload* w, Anchor anchor, int threads, int64_t n) {
  auto limit = limit_threads(threads);
  Data& d = data(*w, n);
  std::vector<Array> out = w->outputs(n);
  anchor.run(d.inputs, out, threads);
  // Anchors may change results (bench/anchors.h): said, not an error.
  if (auto diff = check_results(d.expected, out, w->rtol))
    state.SetLabel("changes results: " + *diff);
  for (auto _ : state) {
    anchor.run(d.inputs, out, threads);
    benchmark::ClobberMemory();
  }
  set_counters(state, *w, n);
}

// The compiled program of the benchmark running now, kept across the calls
// Google Benchmark makes to one benchmark (compiled and checked once).
struct Prepared {
  std::string name;
  Program program;
  std::unique_ptr<Executable> exe;
  double compile_ms = 0;
  std::string error; // non-empty: compile, run or check failed
};

Program parse_workload(const Workload& w, int64_t n) {
  Program p = parse_program(w.program(n), w.name + ".strata");
  check_program(p);
  return p;
}

Prepared& prepare(const std::string& name, const Workload& w, const Engine& e, bool fusion,
                  int64_t n) {
  static std::unique_ptr<Prepared> current;
  if (current && current->name == name) return *current;
  current.reset(); // free the previous executable first
  current = std::make_unique<Prepared>();
  Prepared& p = *current;
  p.name = name;
  try {
    Data& d = data(w, n);
    p.program = parse_workload(w, n);
    auto t0 = std::chrono::steady_clock::now();
    p.exe = e.compile(p.program, CompileOptions{fusion, true});
    p.exe->settle(); // checked and timed: the final code (jit tiers)
    p.compile_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (auto diff = check_results(d.expected, p.exe->run(d.inputs), w.rtol))
      p.error = "wrong result: " + *diff;
  } catch (const std::exception& ex) {
    p.error = ex.what();
  }
  return p;
}

void run_engine(benchmark::State& state, std::string name, const Workload* w, const Engine* e,
                bool fusion, int threads, int64_t n) {
  auto limit = limit_threads(threads);
  Prepared& p = prepare(name, *w, *e, fusion, n);
  if (!p.error.empty()) {
    state.SkipWithError(p.error.c_str());
    return;
  }
  Data& d = data(*w, n);
  for (auto _ : state)
    benchmark::DoNotOptimize(p.exe->run(d.inputs));
  set_counters(state, *w, n);
  state.counters["compile_ms"] = p.compile_ms;
}

// Engine::compile alone, to the final code (Executable::settle); first_ms is
// the first compile in this process.
void compile_engine(benchmark::State& state, const Workload* w, const Engine* e, bool fusion,
                    int64_t n) {
  Program program;
  try {
    program = parse_workload(*w, n);
  } catch (const std::exception& ex) {
    state.SkipWithError(ex.what());
    return;
  }
  bool first = true;
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    try {
      std::unique_ptr<Executable> exe = e->compile(program, CompileOptions{fusion, true});
      exe->settle(); // to the final code: the jit's optimised tier, not only its quick one
      benchmark::DoNotOptimize(exe);
    } catch (const std::exception& ex) {
      state.SkipWithError(ex.what());
      break;
    }
    if (first)
      state.counters["first_ms"] =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    first = false;
  }
  state.counters["n"] = double(n);
}

// Engines whose kernels TBB schedules are measured with 1 thread and all.
bool thread_scaled(const Engine& e) {
  return e.name() == "tbb" || e.name() == "jit";
}

void configure(benchmark::internal::Benchmark* b) {
  b->Unit(benchmark::kMillisecond)->UseRealTime()->MeasureProcessCPUTime();
  if (g_smoke) b->Iterations(1);
}

void register_all() {
  for (const Workload& w : workloads()) {
    const Workload* wp = &w;
    const int64_t full = g_smoke ? w.smoke : w.full;
    const int64_t reduced = g_smoke ? w.smoke : w.interp;
    configure(benchmark::RegisterBenchmark((w.name + "/cpp_o3").c_str(), run_baseline, wp, false, 0,
                                           full));
    for (int t : {1, 0})
      configure(
          benchmark::RegisterBenchmark((w.name + "/cpp_tbb/threads:" + (t ? "1" : "all")).c_str(),
                                       run_baseline, wp, true, t, full));
    for (const Anchor& a : anchors_of(w.name))
      for (int t : {1, 0})
        configure(benchmark::RegisterBenchmark(
            (w.name + "/" + a.name + "/threads:" + (t ? "1" : "all")).c_str(), run_anchor, wp, a, t,
            full));
    for (const Engine* e : all_engines()) {
      std::string why;
      if (!e->available(why)) {
        std::fprintf(stderr, "strata_bench: skipping engine %s: %s\n", e->name().c_str(),
                     why.c_str());
        continue;
      }
      if (e->name() == "interp") { // no fusion, one thread, reduced size
        std::string name = w.name + "/interp";
        configure(
            benchmark::RegisterBenchmark(name.c_str(), run_engine, name, wp, e, false, 0, reduced));
        continue;
      }
      for (bool fusion : {true, false}) {
        std::string base = w.name + "/" + e->name() + (fusion ? "/fused" : "/unfused");
        configure(benchmark::RegisterBenchmark((base + "/compile").c_str(), compile_engine, wp, e,
                                               fusion, full));
        if (!thread_scaled(*e)) {
          configure(
              benchmark::RegisterBenchmark(base.c_str(), run_engine, base, wp, e, fusion, 0, full));
          continue;
        }
        for (int t : {1, 0}) {
          std::string name = base + "/threads:" + (t ? "1" : "all");
          configure(
              benchmark::RegisterBenchmark(name.c_str(), run_engine, name, wp, e, fusion, t, full));
        }
      }
    }
  }
}

} // namespace
} // namespace strata::bench

int main(int argc, char** argv) {
  using namespace strata::bench;
  g_smoke = take_smoke_flag(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("strata_threads", std::to_string(tbb::info::default_concurrency()));
  benchmark::AddCustomContext("strata_sizes", g_smoke ? "smoke" : "full");
  benchmark::AddCustomContext("anchors", anchor_libraries());
  register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
