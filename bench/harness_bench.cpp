// Throughput of the differential harness: generate a random case, print and
// re-parse it, type-check it, run it on the oracle and compare an engine with
// it (issue 5 asks for at least 100 programs per second). One benchmark
// iteration is one program; items_per_second is the figure to report.
#include <benchmark/benchmark.h>

#include "core/check.h"
#include "core/parser.h"
#include "core/printer.h"
#include "interpreter/interpreter.h"
#include "oracle/differential.h"
#include "oracle/generator.h"
#include "oracle/registry.h"

namespace strata {
namespace {

void BM_GenerateCheckInterpret(benchmark::State& state) {
  uint64_t seed = 1;
  int64_t errors = 0;
  for (auto _ : state) {
    GeneratedCase c = generate_case(seed, int(seed % 101));
    ++seed;
    Program p = c.checked();
    Program again = parse_program(print_program(p), "printed.strata");
    check_program(again);
    try {
      benchmark::DoNotOptimize(interpret(p, c.inputs));
    } catch (const Error&) {
      ++errors;
    }
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["errors"] = double(errors);
}
BENCHMARK(BM_GenerateCheckInterpret)->Unit(benchmark::kMillisecond);

// The full differential check of one case against the `interp` engine: the
// oracle run, the derived tolerance, the engine run twice (determinism), the
// comparison. This is what the Engines property does per case and engine.
void BM_DifferentialCheck(benchmark::State& state) {
  uint64_t seed = 1;
  const Engine& engine = *find_engine("interp");
  for (auto _ : state) {
    GeneratedCase c = generate_case(seed, int(seed % 101));
    ++seed;
    Program p = c.checked();
    DiffReport r = differential_check(p, c.inputs, engine, CompileOptions{});
    if (!r.agree) state.SkipWithError(r.disagreement.c_str());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DifferentialCheck)->Unit(benchmark::kMillisecond);

} // namespace
} // namespace strata
