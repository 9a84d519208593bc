// Fusion preserves meaning: the kernel graph of a program, evaluated by the
// test-only sequential evaluator (oracle/graph_eval.h), gives bitwise
// the reference interpreter's results, fused and unfused, on every example
// and on the programs of tests/fusion_programs.h; on a failing program it
// raises an error of the same kind. Also: out-of-range reads of a fused
// backpermute still name `backpermute` and its position.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/npy.h"
#include "fusion/fuse.h"
#include "oracle/graph_eval.h"
#include "tests/cli_util.h"
#include "tests/fusion_programs.h"
#include "tests/test_util.h"

namespace strata {
namespace {

using namespace strata::test;
namespace fs = std::filesystem;

// Runs `p` on the interpreter and on the graph engine (fused and unfused),
// both in the blocked order (the graph engine runs CompileOptions::order);
// results must be identical, or both must fail with the same kind of error.
void expect_same(const Program& p, const std::vector<Array>& inputs, const std::string& what) {
  std::vector<Array> oracle;
  std::optional<ErrorKind> oracle_error;
  InterpreterOptions blocked;
  blocked.order = ReductionOrder::blocked();
  try {
    oracle = interpret(p, inputs, blocked);
  } catch (const Error& e) {
    oracle_error = e.kind();
  }
  auto engine = make_graph_engine();
  for (bool fused : {true, false}) {
    SCOPED_TRACE(what + (fused ? " fused" : " unfused"));
    try {
      std::vector<Array> got = engine->compile(p, CompileOptions{fused, true})->run(inputs);
      ASSERT_FALSE(oracle_error) << "the interpreter failed with " << error_kind_name(*oracle_error)
                                 << ", the graph did not";
      ASSERT_EQ(got.size(), oracle.size());
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_TRUE(identical(got[i], oracle[i])) << "result " << i;
    } catch (const Error& e) {
      ASSERT_TRUE(oracle_error) << "only the graph failed: " << e.what();
      EXPECT_EQ(error_kind_name(e.kind()), error_kind_name(*oracle_error)) << e.what();
    }
  }
}

TEST(KernelGraphEval, AgreesWithTheInterpreterOnEveryExample) {
  int count = 0;
  for (const auto& entry : fs::directory_iterator(source_path("examples"))) {
    if (entry.path().extension() != ".strata") continue;
    Program p = parse_program(slurp(entry.path()), entry.path().string());
    check_program(p);
    std::vector<Array> inputs;
    fs::path dir = entry.path();
    dir.replace_extension("");
    for (const Param& param : p.params)
      inputs.push_back(read_npy((dir / (param.name + ".npy")).string()));
    expect_same(p, inputs, entry.path().filename().string());
    ++count;
  }
  EXPECT_GE(count, 16);
}

TEST(KernelGraphEval, AgreesWithTheInterpreterOnEveryForm) {
  for (const FusionCase& c : fusion_cases())
    expect_same(parse_and_check(fusion_program(c)), fusion_inputs(), c.name);
}

Error graph_failure(const std::string& text, const std::vector<Array>& inputs, bool fused) {
  Program p = parse_and_check(text);
  try {
    (void)make_graph_engine()->compile(p, CompileOptions{fused, true})->run(inputs);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error";
  return Error(ErrorKind::Usage, "none");
}

TEST(KernelGraphEval, FusedBackpermuteErrorsNameBackpermute) {
  // Over a manifest array and over a (cheap) delayed one, fused into a map.
  for (const char* src : {"xs", "(reshape (ix 3) xs)"}) {
    std::string text = std::string("(program ((xs (array i64 1)))\n") +
                       "  (map (lambda ((x i64)) (+ x 1))\n"
                       "    (backpermute (ix 4) (lambda ((i (ix 1))) (ix (* 2 (proj 0 i)))) " +
                       src + ")))";
    for (bool fused : {true, false}) {
      Error e = graph_failure(text, {array_of<int64_t>({1, 2, 3})}, fused);
      EXPECT_EQ(e.kind(), ErrorKind::Bounds) << e.what();
      EXPECT_NE(e.message().find("`backpermute`"), std::string::npos) << e.what();
      EXPECT_EQ(e.loc().line, 3) << e.what();
      EXPECT_EQ(e.loc().col, 5) << e.what();
    }
  }
}

TEST(KernelGraphEval, ReportsPerKernelRunTimes) {
  Program p = parse_and_check("(program ((xs (array i64 1)))\n"
                              "  (fold (lambda ((a i64) (b i64)) (+ a b)) 0\n"
                              "    (map (lambda ((x i64)) (* x x)) xs)))");
  KernelGraph g = build_kernel_graph(p);
  GraphRunStats stats;
  auto out = evaluate_kernel_graph(g, {array_of<int64_t>({1, 2, 3})}, &stats);
  EXPECT_EQ(values_of<int64_t>(out.at(0)), std::vector<int64_t>{14});
  ASSERT_EQ(stats.kernel_runs.size(), 1u);
  EXPECT_EQ(stats.kernel_runs.begin()->second, 1);
  EXPECT_GE(stats.kernel_ms.begin()->second, 0.0);
}

} // namespace
} // namespace strata
