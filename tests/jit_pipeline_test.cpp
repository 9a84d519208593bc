// The jit's pass pipeline (jit/backend.cpp kernel_pipeline, docs/jit.md
// "Compile latency"): every entry point of a float-sum fold that loops (a
// fold's rows and a long row's chunks) is vectorised, not only one of them,
// and the cache key names the pipeline and the LLVM options it runs with.
#include <gtest/gtest.h>

#include <cstdlib>

#include "fusion/fuse.h"
#include "jit/backend.h"
#include "jit/codegen.h"
#include "tests/jit_ir.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {

// The optimised IR of the program's first kernel, one string per function.
std::vector<std::string> optimised_functions(const std::string& program) {
  std::string ir = optimised_ir_of(program);
  std::vector<std::string> functions;
  for (size_t at = ir.find("\ndefine "); at != std::string::npos;) {
    size_t next = ir.find("\ndefine ", at + 1);
    functions.push_back(ir.substr(at, next == std::string::npos ? std::string::npos : next - at));
    at = next;
  }
  return functions;
}

// Each entry with a reassociated float sum (a loop over a row or a chunk)
// also has the vector loop's reduction; returns how many such entries.
int expect_every_sum_vectorised(const std::string& program) {
  int sums = 0;
  for (const std::string& f : optimised_functions(program)) {
    if (f.find("fadd reassoc float") == std::string::npos) continue;
    ++sums;
    EXPECT_NE(f.find("llvm.vector.reduce.fadd"), std::string::npos) << f;
  }
  return sums;
}

TEST(JitPipeline, EveryFloatSumEntryIsVectorised) {
  // dotp: checked reads of two arrays; a rank-1 fold has a row entry (short
  // rows) and a chunk entry (long rows).
  EXPECT_EQ(expect_every_sum_vectorised(
                "(program ((xs (array f32 1)) (ys (array f32 1))) (fold (lambda ((a f32) (b f32)) "
                "(+ a b)) 0f32 (zipwith (lambda ((x f32) (y f32)) (* x y)) xs ys)))"),
            2);
  // Row sums of a matrix: the inner loop of the row entry is nested in the
  // loop over rows.
  EXPECT_EQ(expect_every_sum_vectorised("(program ((m (array f32 2))) (fold (lambda ((a f32) (b "
                                        "f32)) (+ b a)) 0f32 m))"),
            2);
}

TEST(JitPipeline, CacheKeyNamesThePipelineAndOptions) {
  if (const char* p = std::getenv("STRATA_JIT_PIPELINE"); p && std::string(p) == "O3")
    GTEST_SKIP() << "STRATA_JIT_PIPELINE=O3";
  std::string target = jit::target_description();
  EXPECT_NE(target.find("loop-vectorize"), std::string::npos) << target;
  EXPECT_NE(target.find("enable-epilogue-vectorization=false"), std::string::npos) << target;
  EXPECT_NE(target.find("disable-lsr=true"), std::string::npos) << target;
}

} // namespace
} // namespace strata::test
