// strata_bench_jit_compile: the jit engine's cold compile latency, per fused
// kernel. For every program of compile_bench_programs() (the workloads at full
// size and the other examples), fused and checked, and every kernel of its
// compute kernel of its graph (acond's condition, a few instructions, is left out):
//
//   jit_compile/<program>/k<id>   build the kernel's LLVM IR, run the pass
//                                 pipeline, emit the object (no cache: every
//                                 iteration compiles it again)
//   jit_quick/<program>/k<id>     the same kernel's quick tier (no pass
//                                 pipeline, CodeGenOptLevel::None): the
//                                 latency before a miss runs (docs/jit.md "Tiers")
//
// Counters, averaged over the iterations: codegen_ms (IR), optimise_ms (pass
// pipeline), emit_ms (instruction selection to objects), cpu_ms (their sum),
// all thread CPU time summed over the kernel's parts; wall_ms, the latency of
// the compile, with the parts compiled at the same time (a thread each)
// (issue 7's "fused kernel compiled in under 15 ms"); the entry points, parts
// and object size. These are steady-state figures: the first
// compile of a process also pays ~3-5 ms of one-time LLVM set-up (see
// --report's compile_ms for that). docs/jit.md "Compile latency" has the
// figures.
//
//   jit_memory/held_programs      compile, run and hold 400 distinct one-kernel
//                                 programs (disk cache off): counters
//                                 resident_KiB and mappings per held program
//                                 (docs/jit.md "Kernel lifetime")
//
// --smoke (or STRATA_BENCH_SMOKE=1): one iteration each (ctest runs it for one
// program). --host-cpu: prints this machine's CPU as STRATA_JIT_CPU takes it.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "bench/workloads.h"
#include "core/check.h"
#include "core/parser.h"
#include "core/process_memory.h"
#include "fusion/fuse.h"
#include "jit/backend.h"
#include "jit/codegen.h"
#include "jit/engine.h"
#include "jit/key.h"
#include "jit/target_cpu.h"

namespace strata::bench {
namespace {

bool g_smoke = false;

struct Fused {
  std::unique_ptr<Program> program; // the graph points into it
  KernelGraph graph;
};

double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

void cold_compile(benchmark::State& state, const Fused* f, const Kernel* k, bool quick) {
  try {
    int temp = int(f->graph.arrays.size()) + k->id; // as the engine numbers temporaries
    std::string key =
        jit::kernel_key(jit::kernel_text(f->graph, *k, temp), true, jit::target_description());
    double codegen = 0, optimise = 0, emit = 0, wall = 0;
    size_t object = 0, parts = 0;
    int entries = 0;
    for (auto _ : state) {
      double t0 = thread_cpu_ms();
      jit::KernelCode code = jit::generate_kernel_code(
          f->graph, *k, jit::CodegenOptions{true, temp, ReductionOrder::blocked(), quick},
          jit::symbol_prefix(key));
      codegen += thread_cpu_ms() - t0;
      jit::ColdCompile c = jit::compile_uncached(code, quick);
      optimise += c.optimise_ms;
      emit += c.emit_ms;
      wall += c.wall_ms;
      object = c.object_bytes();
      parts = c.parts;
      entries = code.entries;
    }
    auto avg = [](double v) { return benchmark::Counter(v, benchmark::Counter::kAvgIterations); };
    state.counters["codegen_ms"] = avg(codegen);
    state.counters["optimise_ms"] = avg(optimise);
    state.counters["emit_ms"] = avg(emit);
    state.counters["cpu_ms"] = avg(codegen + optimise + emit);
    state.counters["wall_ms"] = avg(codegen + wall);
    state.counters["entries"] = double(entries);
    state.counters["parts"] = double(parts);
    state.counters["object_KiB"] = double(object) / 1024;
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

// What a held program costs once compiled: each iteration compiles, runs and
// holds `count` distinct one-kernel maps (a constant each), then drops them.
void held_programs(benchmark::State& state) {
  try {
    ::setenv("STRATA_CACHE", "off", 1);
    ::setenv("STRATA_MEMORY_CACHE_ENTRIES", "64", 0);
    static std::unique_ptr<Engine> engine = make_jit_engine();
    const int count = g_smoke ? 20 : 400;
    static int next = 0;
    Array one = Array::allocate(Type::scalar(ScalarKind::F32), {1});
    double kib = 0, maps = 0;
    for (auto _ : state) {
      std::vector<std::unique_ptr<Executable>> held;
      ProcessMemory before = process_memory();
      for (int i = 0; i < count; ++i) {
        std::string text = "(program ((xs (array f32 1)))\n  (map (lambda ((x f32)) (* x " +
                           std::to_string(next++) + ".5f32)) xs))";
        Program p = parse_program(text, "held");
        check_program(p);
        held.push_back(engine->compile(p, CompileOptions{}));
        held.back()->run({one});
      }
      ProcessMemory after = process_memory();
      kib += (after.resident_mb - before.resident_mb) * 1024 / count;
      maps += double(after.mappings - before.mappings) / count;
    }
    auto avg = [](double v) { return benchmark::Counter(v, benchmark::Counter::kAvgIterations); };
    state.counters["resident_KiB"] = avg(kib);
    state.counters["mappings"] = avg(maps);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

std::vector<std::unique_ptr<Fused>>& programs() {
  static std::vector<std::unique_ptr<Fused>> all;
  return all;
}

void register_all() {
  for (const NamedProgram& p : compile_bench_programs()) {
    auto f = std::make_unique<Fused>();
    f->program = std::make_unique<Program>(parse_program(p.text, p.name));
    check_program(*f->program);
    f->graph = build_kernel_graph(*f->program, FusionOptions{true});
    for (bool quick : {false, true})
      for (const Kernel* k : compute_kernels(f->graph)) {
        std::string name = std::string(quick ? "jit_quick/" : "jit_compile/") + p.name + "/k" +
                           std::to_string(k->id);
        auto* b = benchmark::RegisterBenchmark(name.c_str(), cold_compile, f.get(), k, quick);
        b->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
        if (g_smoke) b->Iterations(1);
      }
    programs().push_back(std::move(f));
  }
  auto* b = benchmark::RegisterBenchmark("jit_memory/held_programs", held_programs);
  b->Unit(benchmark::kMillisecond)->Iterations(g_smoke ? 1 : 3);
}

} // namespace
} // namespace strata::bench

int main(int argc, char** argv) {
  using namespace strata::bench;
  // --host-cpu: this machine's CPU as STRATA_JIT_CPU takes it (NAME,FEATURES),
  // for scripts/jit-compile-instructions, which compiles for it under
  // valgrind (jit/target_cpu.h).
  if (argc == 2 && std::string(argv[1]) == "--host-cpu") {
    std::printf("%s\n", strata::jit::host_cpu_spec().c_str());
    return 0;
  }
  g_smoke = take_smoke_flag(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  try {
    register_all();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "strata_bench_jit_compile: %s\n", e.what());
    return 1;
  }
  benchmark::AddCustomContext("strata_jit_target", strata::jit::target_description());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
