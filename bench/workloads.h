// The benchmark workloads of docs/bench.md ("Workload definitions"): for each, its Strata
// program as text (examples/*.strata where one matches the definition), its
// deterministic inputs, its sizes (full, reduced for the interpreter, tiny for
// the smoke test), how much work and memory traffic one run is, and the
// hand-written C++ baselines (plain -O3 loops, oneTBB) every engine is
// measured and checked against.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/array.h"

namespace strata::bench {

// A hand-written baseline: reads the inputs, writes into preallocated outputs
// (the shapes `Workload::outputs` gives), in the program's result order.
using Baseline = void (*)(const std::vector<Array>& in, std::vector<Array>& out);

struct Workload {
  std::string name;
  std::string what;            // one line for docs and the report
  bool bandwidth_bound;        // report GB/s; in the fused-tbb-vs-hand-written goal
  int64_t full, interp, smoke; // the size parameter (length, side or body count)
  std::function<std::string(int64_t n)> program;        // program text
  std::function<std::vector<Array>(int64_t n)> inputs;  // parameters in order
  std::function<std::vector<Array>(int64_t n)> outputs; // zero-filled results
  std::function<double(int64_t n)> items;               // work units (elements, pairs, ...)
  std::function<double(int64_t n)> bytes;               // inputs read once + outputs written once
  double rtol; // 0: results must be identical; else |a-e| <= rtol * max|e| per result
  Baseline cpp_o3, cpp_tbb;
};

const std::vector<Workload>& workloads();

// Whether a bench binary runs in smoke mode (tiny sizes, one iteration):
// STRATA_BENCH_SMOKE set and not 0, or a `--smoke` argument, which is
// removed from argv so that Google Benchmark does not see it.
bool take_smoke_flag(int& argc, char** argv);

// The text of examples/NAME.strata (the source tree is compiled in).
std::string example_program(const std::string& name);

// The programs whose compile latency the compile suites measure: every
// workload at its full size, then every example whose text no workload
// shares (named ex.<stem>), in file-name order.
struct NamedProgram {
  std::string name;
  std::string text;
};
std::vector<NamedProgram> compile_bench_programs();

// Hand-written baselines (bench/baselines_o3.cpp, bench/baselines_tbb.cpp; fastmath_*:
// baselines_tbb.cpp compiled with -ffast-math, an anchor of bench/anchors.h).
#define STRATA_BENCH_BASELINES(X)                                                                  \
  X(dotp)                                                                                          \
  X(saxpy)                                                                                         \
  X(mapchain)                                                                                      \
  X(sum_i32)                                                                                       \
  X(scan_f32)                                                                                      \
  X(scan_i32)                                                                                      \
  X(fill_i32) X(histogram) X(mandelbrot) X(blackscholes) X(matmul) X(stencil) X(nbody) X(awhile)
#define STRATA_BENCH_DECLARE(w)                                                                    \
  void o3_##w(const std::vector<Array>& in, std::vector<Array>& out);                              \
  void tbb_##w(const std::vector<Array>& in, std::vector<Array>& out);                             \
  void fastmath_##w(const std::vector<Array>& in, std::vector<Array>& out);
STRATA_BENCH_BASELINES(STRATA_BENCH_DECLARE)
#undef STRATA_BENCH_DECLARE

} // namespace strata::bench
