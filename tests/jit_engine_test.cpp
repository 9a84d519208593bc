// What only the jit engine has: the in-memory kernel cache (a second compile
// compiles nothing), result buffers from its pool, and what the generated
// code of sums, element-wise loops and stencil interiors is. Its agreement
// with the oracle (every example and form, long rows, float sums, stencil
// edges and errors) and the hand-computed expectations every engine meets
// are tests/conformance_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/npy.h"
#include "interpreter/interp_engine.h"
#include "jit/backend.h"
#include "jit/engine.h"
#include "tests/cli_util.h"
#include "tests/jit_ir.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {
const Engine& jit_engine() {
  static auto engine = make_jit_engine();
  return *engine;
}

// A program compiled a second time in the same process takes every kernel
// from the in-memory cache (building no IR), and one compile runs at any input size.
TEST(JitEngine, SecondCompileCompilesNothing) {
  Program p = parse_and_check("(program ((xs (array f32 1))) (scanl (lambda ((a f32) (b f32)) "
                              "(+ a b)) 0f32 (map (lambda ((x f32)) (* x 3.25f32)) xs)))");
  auto first = jit_engine().compile(p, CompileOptions{});
  ASSERT_FALSE(first->compile_report().kernels.empty());
  jit::BackendCounters before = jit::backend_counters();
  auto second = jit_engine().compile(p, CompileOptions{});
  jit::BackendCounters after = jit::backend_counters();
  EXPECT_EQ(after.compiled, before.compiled);
  EXPECT_EQ(after.disk_loads, before.disk_loads);
  EXPECT_EQ(after.ir_built, before.ir_built); // the kernels' metadata, no IR
  for (const KernelCompileInfo& k : second->compile_report().kernels)
    EXPECT_EQ(k.cache, "hit (memory)") << "kernel " << k.kernel;
  for (int n : {0, 1, 7, 5000}) {
    std::vector<float> v(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
      v[size_t(i)] = float(i % 13);
    Array xs = array_of<float>(v, {n});
    EXPECT_TRUE(identical(second->run({xs})[0], interpret(p, {xs})[0])) << n;
  }
  EXPECT_EQ(jit::backend_counters().compiled, before.compiled);
}

// Engine::prepare makes the backend on a thread of its own and warms its
// linker up (docs/jit.md "Disk hits: the warm-up"): the built-in object links; a second
// prepare finds the backend made, and a compile after them works. An engine
// with nothing to set up starts no thread.
TEST(JitEngine, PrepareWarmsTheBackendUp) {
  {
    std::jthread preparing = jit_engine().prepare();
    EXPECT_TRUE(preparing.joinable());
  } // joined
  EXPECT_TRUE(jit::backend_counters().warmed_up);
  std::jthread again = jit_engine().prepare();
  again.join();
  Program p =
      parse_and_check("(program ((xs (array i32 1))) (map (lambda ((x i32)) (* x 7i32)) xs))");
  auto exe = jit_engine().compile(p, CompileOptions{});
  EXPECT_TRUE(
      identical(exe->run({array_of<int32_t>({1, -2, 3})})[0], array_of<int32_t>({7, -14, 21})));
  EXPECT_FALSE(make_interp_engine()->prepare().joinable());
}

// The tools prepare the jit before parsing (its set-up overlaps): a program
// that does not parse still fails with its one-line error and exit code 1
// while, or after, the backend is made, and a good one runs.
TEST(JitEngine, ToolsThatPrepareStillReportBadPrograms) {
  TempDir dir;
  std::string bad = dir.write("bad.strata", "(program ((xs (array f32 1))) (map xs)\n");
  for (const char* command : {"run", "compile", "check"}) {
    CliResult r = run_cli(std::string(command) + " " + bad + " --engine jit");
    EXPECT_EQ(r.exit_code, 1) << command << ": " << r.err;
    EXPECT_NE(r.err.find("bad.strata:2:1: error: unexpected end of input"), std::string::npos)
        << command << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << command << ": " << r.err;
  }
  std::string good =
      dir.write("good.strata", "(program ((xs (array i32 1))) (fold (lambda ((a i32) "
                               "(b i32)) (+ a b)) 0i32 (map (lambda ((x i32)) (* x "
                               "7i32)) xs)))\n");
  std::string xs = (dir / "xs.npy").string();
  write_npy(xs, array_of<int32_t>({1, 2, 3}));
  CliResult r = run_cli("run " + good + " xs=" + xs + " --engine jit");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "42\n"); // 7 * (1 + 2 + 3)
}

// Large results come from the executable's pool: a result the caller still
// holds is never written again; one it dropped is reused by the next run.
TEST(JitEngine, ResultBuffersAreReusedOnlyOnceDropped) {
  Program p =
      parse_and_check("(program ((xs (array f32 1))) (map (lambda ((x f32)) (* x 2f32)) xs))");
  auto exe = jit_engine().compile(p, CompileOptions{});
  auto input = [](float base) {
    std::vector<float> v(size_t(1) << 19);
    for (size_t i = 0; i < v.size(); ++i)
      v[i] = base + float(i % 1000);
    return array_of<float>(v, {int64_t(v.size())});
  };
  Array a = input(1), b = input(-5);
  std::vector<Array> held = exe->run({a});
  std::vector<Array> other = exe->run({b});
  EXPECT_NE(held[0].leaf(0).data(), other[0].leaf(0).data());
  EXPECT_TRUE(identical(held[0], interpret(p, {a})[0]));
  EXPECT_TRUE(identical(other[0], interpret(p, {b})[0]));
  const std::byte* storage = held[0].leaf(0).data();
  held.clear();
  std::vector<Array> again = exe->run({b});
  EXPECT_EQ(again[0].leaf(0).data(), storage);
  EXPECT_TRUE(identical(again[0], interpret(p, {b})[0]));
  EXPECT_TRUE(identical(other[0], interpret(p, {b})[0]));
}

// What the generated code of the kernels the engine's speed rests on is
// (any x86-64 host has at least 4-wide float vectors).
TEST(JitEngine, SumsElementwiseLoopsAndStencilInteriorsAreVectorised) {
  std::string sum = optimised_ir_of(
      "(program ((xs (array f32 1)) (ys (array f32 1))) (fold (lambda ((a f32) (b f32)) (+ a b)) "
      "0f32 (zipwith (lambda ((x f32) (y f32)) (* x y)) xs ys)))");
  // The chunk entry's 32 f32 lanes (blocked order: 128 bytes) in one vector,
  // no fast-math flag anywhere.
  EXPECT_NE(sum.find("fadd <32 x float>"), std::string::npos) << sum;
  EXPECT_EQ(sum.find("reassoc"), std::string::npos) << sum;
  EXPECT_EQ(sum.find(" fast "), std::string::npos) << sum;
  // Another combiner that commutes, operands swapped: its lanes are vectors
  // too. (A function that does not commute, such as (+ (* a 0.5) b), folds
  // each chunk in one lane: docs/language.md "Legal orders".)
  std::string other = optimised_ir_of(
      "(program ((xs (array f32 1))) (fold (lambda ((a f32) (b f32)) (* b a)) 1f32 xs))");
  EXPECT_NE(other.find("fmul <32 x float>"), std::string::npos) << other;
  EXPECT_EQ(other.find("reassoc"), std::string::npos) << other;
  std::string saxpy = optimised_ir_of(
      "(program ((xs (array f32 1)) (ys (array f32 1))) (zipwith (lambda ((x f32) (y f32)) (+ (* "
      "2f32 x) y)) xs ys))");
  EXPECT_NE(saxpy.find("store <"), std::string::npos) << saxpy;
  EXPECT_EQ(saxpy.find("call float"), std::string::npos) << saxpy;
  std::string blur = optimised_ir_of(
      "(program ((img (array f32 2))) (stencil (3 3) clamp (lambda ((nb (window f32 2))) (+ (+ "
      "(at nb -1 0) (at nb 0 -1)) (at nb 1 1))) img))");
  EXPECT_NE(blur.find("load <"), std::string::npos) << blur;
  EXPECT_NE(blur.find("store <"), std::string::npos) << blur;
}

} // namespace
} // namespace strata::test
