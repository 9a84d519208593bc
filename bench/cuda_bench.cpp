// strata_bench_cuda: the cuda engine against hand-written CUDA (CUB, cuBLAS
// and plain kernels: bench/cuda_baselines.h) on the workloads of docs/bench.md,
// in one process on one GPU. Benchmark names are WORKLOAD/CONFIG:
//
//   WORKLOAD/cub            the baseline's device time (CUDA events), data on
//                           the device
//   WORKLOAD/cub/transfers  the baseline with its inputs copied in and its
//                           results copied out (pageable host memory), wall
//   WORKLOAD/cuda/fused     the cuda engine, one Executable::run (inputs in,
//                           results out), wall; counter kernels_ms: the
//                           engine's own per-kernel times of that run (each
//                           launch waited for), so without the copies
//
// Counters: bytes_per_second over the workload's bytes (inputs read once,
// results written once) and, for the device-time rows of bandwidth-bound
// workloads, peak_fraction: that rate over the device's datasheet bandwidth.
// Every configuration first checks its results against the hand-written
// oneTBB baseline (bench/check.h) and stops with an error on a mismatch.
//
// Without a CUDA device it prints why and exits 0. --smoke: tiny sizes, one
// iteration each.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <memory>

#include "bench/check.h"
#include "bench/cuda_baselines.h"
#include "bench/workloads.h"
#include "core/check.h"
#include "core/parser.h"
#include "oracle/registry.h"

namespace strata::bench {
namespace {
namespace cb = cuda_baselines;

bool g_smoke = false;
double g_peak = 0; // bytes/s

struct Data {
  std::vector<Array> inputs, expected;
};

Data make_data(const Workload& w, int64_t n) {
  Data d;
  d.inputs = w.inputs(n);
  d.expected = w.outputs(n);
  w.cpp_tbb(d.inputs, d.expected);
  return d;
}

// A workload's arrays on the device, one buffer per leaf.
struct DeviceArrays {
  std::vector<void*> buffers;
  std::vector<size_t> bytes;
  explicit DeviceArrays(const std::vector<Array>& arrays) {
    for (const Array& a : arrays)
      for (size_t l = 0; l < a.num_leaves(); ++l) {
        bytes.push_back(size_t(a.size()) * scalar_size(a.leaf_kind(l)));
        buffers.push_back(cb::device_alloc(bytes.back()));
      }
  }
  ~DeviceArrays() {
    for (void* p : buffers)
      cb::device_free(p);
  }
  DeviceArrays(const DeviceArrays&) = delete;
  DeviceArrays& operator=(const DeviceArrays&) = delete;
  std::vector<const void*> in() const { return {buffers.begin(), buffers.end()}; }
  void upload(const std::vector<Array>& arrays) {
    size_t i = 0;
    for (const Array& a : arrays)
      for (size_t l = 0; l < a.num_leaves(); ++l, ++i)
        if (bytes[i]) cb::to_device(buffers[i], a.leaf(l).data(), bytes[i]);
  }
  void download(std::vector<Array>& arrays) const {
    size_t i = 0;
    for (Array& a : arrays)
      for (size_t l = 0; l < a.num_leaves(); ++l, ++i)
        if (bytes[i]) cb::to_host(a.leaf(l).data(), buffers[i], bytes[i]);
  }
};

void counters(benchmark::State& state, const Workload& w, int64_t n, double device_ms) {
  state.SetItemsProcessed(int64_t(double(state.iterations()) * w.items(n)));
  state.SetBytesProcessed(int64_t(double(state.iterations()) * w.bytes(n)));
  state.counters["n"] = double(n);
  if (device_ms > 0 && w.bandwidth_bound && g_peak > 0)
    state.counters["peak_fraction"] = w.bytes(n) / (device_ms * 1e-3) / g_peak;
}

void run_cub(benchmark::State& state, const Workload* w, int64_t n, bool transfers) {
  cb::DeviceBaseline f = cb::find(w->name);
  try {
    Data d = make_data(*w, n);
    DeviceArrays in(d.inputs);
    std::vector<Array> out = w->outputs(n);
    DeviceArrays dout(out);
    in.upload(d.inputs);
    cb::time_ms(f, in.in(), dout.buffers, n);
    dout.download(out);
    if (auto diff = check_results(d.expected, out, w->rtol)) {
      state.SkipWithError(("wrong result: " + *diff).c_str());
      return;
    }
    double total_ms = 0;
    for (auto _ : state) {
      if (!transfers) {
        double ms = cb::time_ms(f, in.in(), dout.buffers, n);
        total_ms += ms;
        state.SetIterationTime(ms * 1e-3);
        continue;
      }
      auto t0 = std::chrono::steady_clock::now();
      in.upload(d.inputs);
      cb::time_ms(f, in.in(), dout.buffers, n);
      dout.download(out);
      state.SetIterationTime(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    counters(state, *w, n, transfers ? 0 : total_ms / double(state.iterations()));
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

void run_engine(benchmark::State& state, const Workload* w, const Engine* e, int64_t n) {
  try {
    Data d = make_data(*w, n);
    Program p = parse_program(w->program(n), w->name + ".strata");
    check_program(p);
    auto exe = e->compile(p, CompileOptions{true, true});
    exe->settle();
    if (auto diff = check_results(d.expected, exe->run(d.inputs), w->rtol)) {
      state.SkipWithError(("wrong result: " + *diff).c_str());
      return;
    }
    double kernels_ms = 0;
    for (auto _ : state) {
      auto t0 = std::chrono::steady_clock::now();
      benchmark::DoNotOptimize(exe->run(d.inputs));
      state.SetIterationTime(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      for (const auto& [id, ms] : exe->kernel_run_ms())
        kernels_ms += ms;
    }
    double per_run = kernels_ms / double(state.iterations());
    counters(state, *w, n, per_run);
    state.counters["kernels_ms"] = per_run;
  } catch (const std::exception& ex) {
    state.SkipWithError(ex.what());
  }
}

void configure(benchmark::internal::Benchmark* b) {
  b->Unit(benchmark::kMillisecond)->UseManualTime();
  if (g_smoke) b->Iterations(1);
}

void register_all(const Engine* cuda) {
  for (const Workload& w : workloads()) {
    const int64_t n = g_smoke ? w.smoke : w.full;
    if (cb::find(w.name)) {
      configure(benchmark::RegisterBenchmark((w.name + "/cub").c_str(), run_cub, &w, n, false));
      configure(
          benchmark::RegisterBenchmark((w.name + "/cub/transfers").c_str(), run_cub, &w, n, true));
    }
    if (cuda)
      configure(
          benchmark::RegisterBenchmark((w.name + "/cuda/fused").c_str(), run_engine, &w, cuda, n));
  }
}

} // namespace
} // namespace strata::bench

int main(int argc, char** argv) {
  using namespace strata::bench;
  g_smoke = take_smoke_flag(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  std::string why;
  if (!cuda_baselines::device_available(why)) {
    std::printf("skip: strata_bench_cuda: %s\n", why.c_str());
    return 0;
  }
  const strata::Engine* cuda = strata::find_engine("cuda");
  if (cuda && !cuda->available(why)) {
    std::printf("strata_bench_cuda: the cuda engine is unavailable (%s): baselines only\n",
                why.c_str());
    cuda = nullptr;
  }
  g_peak = cuda_baselines::device_peak_bandwidth();
  benchmark::AddCustomContext("device", cuda_baselines::device_name());
  benchmark::AddCustomContext("device_peak_GBps", std::to_string(g_peak / 1e9));
  for (const Workload& w : workloads())
    if (cuda_baselines::find(w.name))
      benchmark::AddCustomContext("baseline_" + w.name, cuda_baselines::what(w.name));
  register_all(cuda);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
