// strata_bench_cuda_compile: the cuda engine's compile latency, without a GPU
// (cuda/compile.h; NVRTC runs on the CPU). For every benchmark workload
// (bench/workloads.h) and every example whose text no workload shares
// (named ex.<stem>), fused, for one architecture (--arch=sm_XX, default
// sm_80):
//
//   cuda_compile/<program>/cold    fuse + codegen + NVRTC to CUBIN, no cache
//   cuda_compile/<program>/disk    fuse + codegen + a verified disk-cache hit
//                                  (memory cache off; the entry is written once
//                                  before timing, in a temporary directory)
//   cuda_compile/<program>/memory  fuse + codegen + a memory-cache hit
//
// Times are per program (one translation unit holds all of a program's
// kernels); counters give the kernel count, the cache/NVRTC step alone
// (compile_ms) and codegen_ms, averaged over the iterations. Each benchmark
// checks that every kernel got the outcome its mode means and stops with an
// error otherwise. docs/cuda.md has the figures.
//
// --smoke (or STRATA_BENCH_SMOKE=1): one iteration each (ctest runs it for one
// program).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bench/workloads.h"
#include "core/check.h"
#include "core/parser.h"
#include "cuda/compile.h"

namespace strata::bench {
namespace {
namespace fs = std::filesystem;

bool g_smoke = false;
int g_arch = 80;
fs::path g_disk_dir; // the disk cache of the `disk` mode

struct Compiled {
  std::string name;
  std::unique_ptr<Program> program; // the compiled graph points into it
};

double phase(const CompileReport& r, const std::string& name) {
  for (const auto& [n, ms] : r.phases)
    if (n == name) return ms;
  return 0;
}

cuda::CompileCaches caches_for(const std::string& mode) {
  cuda::CompileCaches c;
  c.memory = mode == "memory";
  c.disk = cache::DiskOptions{};
  c.disk->enabled = mode == "disk";
  c.disk->dir = g_disk_dir;
  return c;
}

bool outcome_ok(const std::string& mode, const std::string& outcome) {
  if (mode == "cold") return outcome.rfind("miss", 0) == 0;
  return outcome == "hit (" + mode + ")";
}

void compile_latency(benchmark::State& state, const Program* program, std::string mode) {
  cuda::CompileCaches caches = caches_for(mode);
  try {
    if (mode != "cold") cuda::compile_program(*program, true, g_arch, caches); // fill the cache
    double compile_ms = 0, codegen_ms = 0;
    size_t kernels = 0, image = 0;
    for (auto _ : state) {
      cuda::CompiledProgram c = cuda::compile_program(*program, true, g_arch, caches);
      compile_ms += phase(c.report, "compile");
      codegen_ms += phase(c.report, "codegen");
      kernels = c.report.kernels.size();
      image = c.image.size();
      for (const KernelCompileInfo& k : c.report.kernels)
        if (!outcome_ok(mode, k.cache)) {
          state.SkipWithError(("unexpected cache outcome: " + k.cache).c_str());
          return;
        }
    }
    state.counters["kernels"] = double(kernels);
    state.counters["compile_ms"] =
        benchmark::Counter(compile_ms, benchmark::Counter::kAvgIterations);
    state.counters["codegen_ms"] =
        benchmark::Counter(codegen_ms, benchmark::Counter::kAvgIterations);
    state.counters["cubin_KiB"] = double(image) / 1024;
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

std::vector<Compiled>& programs() {
  static std::vector<Compiled> all;
  return all;
}

void add_program(const std::string& name, const std::string& text) {
  auto p = std::make_unique<Program>(parse_program(text, name));
  check_program(*p);
  programs().push_back({name, std::move(p)});
}

void register_all() {
  for (const NamedProgram& p : compile_bench_programs())
    add_program(p.name, p.text);
  for (const Compiled& c : programs())
    for (const char* mode : {"cold", "disk", "memory"}) {
      auto* b = benchmark::RegisterBenchmark(("cuda_compile/" + c.name + "/" + mode).c_str(),
                                             compile_latency, c.program.get(), std::string(mode));
      b->Unit(benchmark::kMillisecond)->UseRealTime()->MeasureProcessCPUTime();
      if (g_smoke)
        b->Iterations(1);
      else if (std::string(mode) == "cold")
        b->Iterations(3); // ~0.05-0.7 s each
    }
}

} // namespace
} // namespace strata::bench

int main(int argc, char** argv) {
  using namespace strata::bench;
  g_smoke = take_smoke_flag(argc, argv);
  int kept = 1;
  try {
    for (int i = 1; i < argc; ++i) {
      if (std::strncmp(argv[i], "--arch=", 7) == 0)
        g_arch = strata::cuda::parse_arch(argv[i] + 7);
      else
        argv[kept++] = argv[i];
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "strata_bench_cuda_compile: %s\n", e.what());
    return 2;
  }
  argc = kept;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  std::string tmpl = (fs::temp_directory_path() / "strata-cuda-compile-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) {
    std::perror("strata_bench_cuda_compile: mkdtemp");
    return 1;
  }
  g_disk_dir = tmpl;
  benchmark::AddCustomContext("strata_cuda_arch", "sm_" + std::to_string(g_arch));
  try {
    register_all();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "strata_bench_cuda_compile: %s\n", e.what());
    return 1;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::error_code ec;
  fs::remove_all(g_disk_dir, ec);
  return 0;
}
