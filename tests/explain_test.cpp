// `explain` (issue 9, items 2 and 5): golden trees for example elements (a
// mandelbrot pixel, a histogram bin, a stencil corner under each boundary, a
// fold row, a JSON tree), the explained value always equal to the
// interpreter's on every example, the size cap, and `check` printing the
// oracle's explanation of the first element that differs from the expected.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/check.h"
#include "core/npy.h"
#include "core/parser.h"
#include "interpreter/explain.h"
#include "tests/cli_util.h"
#include "tests/golden_util.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {

namespace fs = std::filesystem;

std::string example(const std::string& name) {
  return source_path("examples/" + name + ".strata");
}

std::string explain_cli(const std::string& args) {
  CliResult r = run_cli("explain " + args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return relative_paths(r.out);
}

TEST(ExplainGolden, MandelbrotPixel) {
  // The centre of the set: the loop runs all 255 iterations.
  expect_golden("explain_mandelbrot_12_10.txt",
                explain_cli(example("mandelbrot") + " --at 12,10 --edge 1"));
}

TEST(ExplainGolden, HistogramBin) {
  expect_golden("explain_histogram_3.txt", explain_cli(example("histogram") + " --at 3 --edge 1"));
}

TEST(ExplainGolden, StencilCornerUnderEachBoundary) {
  std::string all;
  for (int k = 0; k < 4; ++k)
    all += explain_cli(example("stencil_boundaries") + " --at 0,0 --result " + std::to_string(k));
  expect_golden("explain_stencil_corner.txt", all);
}

TEST(ExplainGolden, FoldRowThroughReplicateAndBackpermute) {
  expect_golden("explain_matmul_1_1.txt", explain_cli(example("matmul") + " --at 1,1 --edge 1"));
}

TEST(ExplainGolden, Json) {
  expect_golden("explain_tuples_1.json", explain_cli(example("tuples") + " --at 1 --json"));
}

// Every example, every result, its first, middle and last elements: the tree
// is built without error and its value is the interpreter's. Under the
// sanitizers the first element only (each explanation interprets the whole
// program again, minutes per example in that build).
TEST(Explain, AgreesWithTheInterpreterOnEveryExample) {
  int explained = 0;
  for (const auto& entry : fs::directory_iterator(source_path("examples"))) {
    if (entry.path().extension() != ".strata") continue;
    Program p = parse_program(slurp(entry.path()), entry.path().string());
    check_program(p);
    std::vector<Array> in;
    for (const Param& param : p.params)
      in.push_back(read_npy(
          (entry.path().parent_path() / entry.path().stem() / (param.name + ".npy")).string()));
    std::vector<Array> out = interpret(p, in);
    for (size_t k = 0; k < out.size(); ++k) {
      std::vector<int64_t> elements = {0, out[k].size() / 2, out[k].size() - 1};
      if (kUnderSanitizers) elements.resize(1);
      for (int64_t i : elements) {
        if (i < 0 || out[k].size() == 0) continue;
        Index at = from_linear(out[k].shape(), i);
        ExplainNode tree = explain_tree(p, in, k, at);
        std::string text = render_text(tree);
        EXPECT_EQ(tree.value, value_str(read_element(out[k], i))) << text;
        EXPECT_EQ(text.find("internal error"), std::string::npos) << text;
        ++explained;
      }
    }
  }
  EXPECT_GE(explained, kUnderSanitizers ? 16 : 48);
}

TEST(Explain, ScansFoldsegsAndAwhile) {
  Program p = parse_and_check(
      "(program ((xs (array i64 1)))\n"
      "  (alet ((s (scanl' (lambda ((a i64) (b i64)) (+ a b)) 10 xs)))\n"
      "    (atuple (aproj 0 s) (aproj 1 s)\n"
      "      (scanr1 (lambda ((a i64) (b i64)) (- a b)) xs)\n"
      "      (awhile (lambda ((t (array i64 1))) (unit (< (! t (ix 0)) 100)))\n"
      "              (lambda ((t (array i64 1))) (map (lambda ((v i64)) (* v 3)) t)) xs))))");
  std::vector<Array> in = {array_of<int64_t>({1, 2, 3, 4})};
  std::vector<Array> out = interpret(p, in);
  for (size_t k = 0; k < out.size(); ++k)
    for (int64_t i = 0; i < out[k].size(); ++i) {
      ExplainNode tree = explain_tree(p, in, k, from_linear(out[k].shape(), i));
      EXPECT_EQ(tree.value, value_str(read_element(out[k], i))) << render_text(tree);
    }
  // The loop's element names the state it was computed from.
  std::string text = render_text(explain_tree(p, in, 3, {2}));
  EXPECT_NE(text.find("the loop ran 5 iteration(s)"), std::string::npos) << text;
  EXPECT_NE(text.find("`t` (2), the loop state after 4 iteration(s) = 243"), std::string::npos)
      << text;
}

TEST(Explain, BigTreesAreCut) {
  ExplainOptions small;
  small.max_nodes = 15;
  std::string text = render_text(
      explain_tree(parse_and_check("(program () (generate (ix 3) (lambda ((i (ix 1))) (proj 0 "
                                   "(while (lambda ((s (tuple i64 i64))) (< (proj 0 s) 50)) "
                                   "(lambda ((s (tuple i64 i64))) (tuple (+ (proj 0 s) 1) (* "
                                   "(proj 1 s) 2))) (tuple 0 1))))))"),
                   {}, 0, {1}, small));
  EXPECT_NE(text.find("more (tree size limit)"), std::string::npos) << text;
  EXPECT_NE(text.find("... 46 more iterations (2 .. 47)"), std::string::npos) << text;
}

TEST(Explain, UsageErrors) {
  CliResult r = run_cli("explain " + example("histogram") + " --at 8");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("index (8) is out of bounds for the result's shape (8)"), std::string::npos)
      << r.err;
  EXPECT_EQ(run_cli("explain " + example("histogram")).exit_code, 2);
  EXPECT_EQ(run_cli("explain " + example("histogram") + " --at x").exit_code, 2);
  EXPECT_EQ(run_cli("explain " + example("histogram") + " --at 1 --result 1").exit_code, 2);
}

TEST(ExplainCheck, ADisagreementShowsTheOraclesExplanation) {
  // The expected output stored beside the program is wrong in element 2.
  TempDir dir;
  std::string prog = dir.write("p.strata", "(program ((xs (array i64 1)))\n"
                                           "  (map (lambda ((x i64)) (* x 10)) xs))\n");
  fs::create_directory(dir / "p");
  write_npy((dir / "p" / "xs.npy").string(), array_of<int64_t>({1, 2, 3}));
  write_npy((dir / "p" / "expected.npy").string(), array_of<int64_t>({10, 20, 31}));
  CliResult r = run_cli("check " + prog + " --engine interp");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("element (2): found 31, the interpreter 30 (compared bitwise)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("the oracle's evaluation of that element (strata explain):"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("map (2) = 30  @2:3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("input `xs` (2) = 3"), std::string::npos) << r.err;
}

} // namespace
} // namespace strata::test
