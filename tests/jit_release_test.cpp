// The jit gives back what a dropped program held (docs/jit.md "Kernel
// lifetime"): a process that compiles and drops a stream of distinct programs
// keeps a flat resident set and mapping count once its memory cache is full.
// STRATA_RELEASE_PROGRAMS sets how many programs past the warm-up the first
// test compiles (default 1000; the figures in docs/jit.md are for 100 000).
// The tests bound the memory cache at 64 kernels (a backend made earlier in
// the same process keeps its own bound, which the tests read).
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <string>

#include "core/process_memory.h"
#include "jit/backend.h"
#include "jit/engine.h"
#include "tests/test_util.h"

namespace strata {
namespace {

const Engine& jit_engine() {
  ::setenv("STRATA_MEMORY_CACHE_ENTRIES", "64", 0); // read by a fresh backend
  static auto engine = make_jit_engine();
  return *engine;
}

// Program i: a one-kernel map whose constant makes its kernel distinct.
Program program(int i) {
  std::string text = "(program ((xs (array f32 1)))\n  (map (lambda ((x f32)) (* x " +
                     std::to_string(i) + ".5f32)) xs))";
  return test::parse_and_check(text);
}

// Compiles and runs program i, checks its result by hand, and drops it.
void compile_run_drop(int i) {
  auto exe = jit_engine().compile(program(i), CompileOptions{});
  std::vector<Array> out = exe->run({test::array_of<float>({1, 2, -4})});
  float k = float(i) + 0.5f;
  ASSERT_EQ(test::values_of<float>(out.at(0)), (std::vector<float>{k, 2 * k, -4 * k})) << i;
}

int programs_after_warm_up() {
  const char* n = std::getenv("STRATA_RELEASE_PROGRAMS");
  return n && *n ? std::atoi(n) : 1000;
}

TEST(JitRelease, DroppedProgramsGiveTheirCodeBack) {
  ::setenv("STRATA_CACHE", "off", 1); // every program compiled; read by a fresh backend
  jit_engine();
  // Past the memory cache's bound, every program loaded unloads one.
  int warm_up = int(jit::backend_counters().cache_max_entries) + 200;
  int next = 1000000; // distinct from other tests' constants
  for (int i = 0; i < warm_up; ++i)
    compile_run_drop(next++);
  ProcessMemory before = process_memory();
  jit::BackendCounters c0 = jit::backend_counters();
  int n = programs_after_warm_up();
  for (int i = 0; i < n; ++i) {
    compile_run_drop(next++);
    if (HasFatalFailure()) return;
  }
  ProcessMemory after = process_memory();
  jit::BackendCounters c1 = jit::backend_counters();
  std::cout << "after " << warm_up << " programs: " << before.resident_mb << " MiB resident, "
            << before.mappings << " mappings; after " << n << " more: " << after.resident_mb
            << " MiB, " << after.mappings << " mappings; " << c1.cached << " kernels cached ("
            << c1.cached_bytes << " object bytes)\n";
  // Every program past the warm-up unloaded one kernel; nothing else is held.
  EXPECT_GE(c1.released - c0.released, uint64_t(n));
  EXPECT_EQ(c1.resident, c1.cached);
  EXPECT_LE(c1.cached, c1.cache_max_entries);
  // Flat: the JITLink slabs of a kernel are a few mappings, so n unreleased
  // kernels would add thousands; allocator noise is a few.
  EXPECT_LE(after.mappings - before.mappings, 32);
  EXPECT_LE(after.resident_mb - before.resident_mb, 24.0);
}

// A kernel holds its code while an executable holds it, even after the memory
// cache dropped it, and a later compile of the same program finds it there.
TEST(JitRelease, HeldKernelsOutliveTheMemoryCache) {
  jit_engine();
  auto held = jit_engine().compile(program(7), CompileOptions{});
  int limit = int(jit::backend_counters().cache_max_entries);
  for (int i = 0; i <= limit; ++i)
    compile_run_drop(2000000 + i); // pushes program 7's kernel out of the cache
  jit::BackendCounters c0 = jit::backend_counters();
  auto again = jit_engine().compile(program(7), CompileOptions{});
  EXPECT_EQ(jit::backend_counters().memory_hits, c0.memory_hits + 1);
  EXPECT_EQ(again->compile_report().kernels.at(0).cache, "hit (memory)");
  for (auto* exe : {held.get(), again.get()}) {
    std::vector<Array> out = exe->run({test::array_of<float>({2})});
    EXPECT_EQ(test::values_of<float>(out.at(0)), std::vector<float>{15});
  }
}

// Each loaded kernel holds a few mappings (its JITLink slabs), so held
// programs cannot exhaust vm.max_map_count before memory. The resident set
// per held program depends on the allocator and is measured, not asserted:
// strata_bench_jit_compile's jit_memory/held_programs (docs/jit.md).
TEST(JitRelease, MappingsPerLoadedKernel) {
  ::setenv("STRATA_CACHE", "off", 1);
  jit_engine();
  constexpr int held_count = 200;
  for (int i = 0; i < 50; ++i)
    compile_run_drop(3000000 + i); // the backend and its caches warm
  std::vector<std::unique_ptr<Executable>> held;
  ProcessMemory before = process_memory();
  for (int i = 0; i < held_count; ++i) {
    held.push_back(jit_engine().compile(program(4000000 + i), CompileOptions{}));
    held.back()->run({test::array_of<float>({1})});
  }
  ProcessMemory after = process_memory();
  double maps = double(after.mappings - before.mappings) / held_count;
  std::cout << "per loaded one-kernel program: " << maps << " mappings\n";
  EXPECT_LE(maps, 8.0);
  EXPECT_GE(jit::backend_counters().resident, uint64_t(held_count));
}

} // namespace
} // namespace strata
