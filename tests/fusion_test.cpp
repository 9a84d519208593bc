// Fusion (fusion/fuse.h): kernel counts of canonical programs are tested
// facts, sharing is kept, and every form converts fused and unfused.
#include <gtest/gtest.h>

#include <string>

#include "fusion/dot.h"
#include "fusion/fuse.h"
#include "tests/cli_util.h"
#include "tests/fusion_programs.h"
#include "tests/test_util.h"

namespace strata {
namespace {

using namespace strata::test;

KernelGraph graph_of(const std::string& text, bool fused = true) {
  Program p = parse_and_check(text);
  return build_kernel_graph(p, FusionOptions{fused});
}

int kernels(const std::string& text, bool fused = true) {
  return count_kernels(graph_of(text, fused));
}

Program example(const std::string& name) {
  std::string file = source_path("examples/" + name + ".strata");
  Program p = parse_program(slurp(file), file);
  check_program(p);
  return p;
}

int example_kernels(const std::string& name, bool fused = true) {
  Program p = example(name);
  return count_kernels(build_kernel_graph(p, FusionOptions{fused}));
}

const char* kVec = "(program ((xs (array i64 1)))\n";

TEST(FusionCounts, DotpIsOneKernel) {
  EXPECT_EQ(example_kernels("dotp"), 1);
  EXPECT_EQ(example_kernels("dotp", false), 2);
  Program p = example("dotp");
  KernelGraph g = build_kernel_graph(p);
  auto ks = compute_kernels(g);
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(kernel_kind_name(*ks[0]), "fold");
  ASSERT_EQ(ks[0]->ops.size(), 2u);
  EXPECT_EQ(ks[0]->ops[0].name, "zipwith");
  EXPECT_EQ(ks[0]->ops[0].loc.line, 15);
  EXPECT_EQ(ks[0]->ops[0].loc.col, 9);
  EXPECT_EQ(ks[0]->ops[1].name, "fold");
  EXPECT_EQ(ks[0]->ops[1].loc.line, 14);
}

TEST(FusionCounts, FiveMapsOverAGenerateAreOneKernel) {
  std::string body = "(generate (ix 10) (lambda ((i (ix 1))) (proj 0 i)))";
  for (int k = 0; k < 5; ++k)
    body = "(map (lambda ((x i64)) (+ x " + std::to_string(k) + ")) " + body + ")";
  EXPECT_EQ(kernels("(program () " + body + ")"), 1);
  EXPECT_EQ(kernels("(program () " + body + ")", false), 6);
  KernelGraph g = graph_of("(program () " + body + ")");
  EXPECT_EQ(compute_kernels(g)[0]->ops.size(), 6u); // generate + 5 maps
}

TEST(FusionCounts, MandelbrotIsOneKernel) {
  EXPECT_EQ(example_kernels("mandelbrot"), 1);
  EXPECT_EQ(example_kernels("mandelbrot", false), 1);
}

TEST(FusionCounts, UseGenerateZipwithFoldThenMapIsTwo) {
  std::string text = "(program ()\n"
                     "  (map (lambda ((s i64)) (* s 2))\n"
                     "    (fold (lambda ((a i64) (b i64)) (+ a b)) 0\n"
                     "      (zipwith (lambda ((x i64) (y i64)) (* x y))\n"
                     "        (use (array i64 (4) 1 2 3 4))\n"
                     "        (generate (ix 4) (lambda ((i (ix 1))) (proj 0 i)))))))";
  EXPECT_EQ(kernels(text), 2);
  EXPECT_EQ(kernels(text, false), 4);
}

TEST(FusionSharing, ArrayUsedTwiceStaysManifest) {
  std::string text = std::string(kVec) + "(alet ((a (map (lambda ((x i64)) (* x x)) xs)))\n"
                                         "  (zipwith (lambda ((p i64) (q i64)) (- p q)) a a)))";
  KernelGraph g = graph_of(text);
  auto ks = compute_kernels(g);
  ASSERT_EQ(ks.size(), 2u);
  // The first kernel computes `a` once; the second reads it twice.
  EXPECT_EQ(g.arrays[size_t(ks[0]->outputs[0])].source_name, "a");
  EXPECT_EQ(array_reads(g, *ks[1]), std::vector<ArrayId>{ks[0]->outputs[0]});
}

TEST(FusionSharing, ArrayUsedOnceFusesAcrossAlet) {
  EXPECT_EQ(kernels(std::string(kVec) + "(alet ((a (map (lambda ((x i64)) (* x x)) xs)))\n"
                                        "  (fold (lambda ((p i64) (q i64)) (+ p q)) 0 a)))"),
            1);
}

TEST(FusionSharing, CheapArraysAreRecomputed) {
  // A replicate of a manifest array is an index computation: fused twice.
  EXPECT_EQ(kernels(std::string(kVec) + "(alet ((r (replicate (spec 3 all) xs)))\n"
                                        "  (zipwith (lambda ((p i64) (q i64)) (- p q)) r r)))"),
            1);
  // A literal fill too.
  EXPECT_EQ(kernels(std::string(kVec) + "(alet ((f (fill (ix 8) 1)))\n"
                                        "  (zipwith (lambda ((p i64) (q i64)) (- p q)) f f)))"),
            1);
}

TEST(FusionSharing, StencilInputStaysManifest) {
  EXPECT_EQ(kernels(std::string(kVec) +
                    "(stencil (3) clamp (lambda ((nb (window i64 1))) (+ (at nb -1) (at nb 1)))\n"
                    "  (map (lambda ((x i64)) (* x x)) xs)))"),
            2);
}

TEST(FusionSharing, IndexedReadsKeepArraysManifest) {
  EXPECT_EQ(kernels(std::string(kVec) + "(alet ((a (map (lambda ((x i64)) (* x x)) xs)))\n"
                                        "  (generate (ix 3) (lambda ((i (ix 1))) (! a i)))))"),
            2);
}

TEST(FusionSharing, ArraysUsedInsideALoopStayManifest) {
  std::string text =
      std::string(kVec) +
      "(alet ((w (map (lambda ((x i64)) (* x 2)) xs)))\n"
      "  (awhile (lambda ((s (array i64 1)))\n"
      "            (alet ((t (fold1 (lambda ((a i64) (b i64)) (max a b)) s))) (unit (< (the t) "
      "100))))\n"
      "          (lambda ((s (array i64 1))) (zipwith (lambda ((a i64) (b i64)) (+ a b)) s w))\n"
      "          xs)))";
  KernelGraph g = graph_of(text);
  // w (1), the condition: fold1 + unit (2), the body: zipwith (1).
  EXPECT_EQ(count_kernels(g), 4);
  ASSERT_EQ(g.body.size(), 2u);
  EXPECT_EQ(kernel_kind_name(g.body[0]), "generate");
  EXPECT_EQ(kernel_kind_name(g.body[1]), "awhile");
}

TEST(FusionSharing, SliceAndReshapeFuse) {
  EXPECT_EQ(kernels("(program ((m (array i64 2)))\n"
                    "  (fold (lambda ((a i64) (b i64)) (+ a b)) 0\n"
                    "    (reshape (ix 2 2) (slice (map (lambda ((x i64)) (* x x)) m) (spec 0 "
                    "all)))))"),
            1);
}

TEST(FusionExamples, KernelCounts) {
  struct Expect {
    const char* name;
    int fused, unfused;
  };
  // Measured and checked by hand against the rules of docs/fusion.md.
  const Expect expected[] = {
      {"awhile_halve", 3, 4},
      {"blackscholes", 3, 3},
      {"blur", 1, 1},
      {"dotp", 1, 2},
      {"histogram", 1, 3},
      {"mandelbrot", 1, 1},
      {"matmul", 1, 5},
      {"nbody", 4, 5},
      {"prefix_sum", 1, 1},
      {"saxpy", 1, 1},
      {"scan_variants", 9, 9},
      {"segmented_sum", 2, 2},
      {"slice_replicate", 5, 6},
      {"stencil_boundaries", 4, 4},
      {"sum", 1, 1},
      {"tuples", 7, 8},
  };
  for (const Expect& e : expected) {
    EXPECT_EQ(example_kernels(e.name), e.fused) << e.name;
    EXPECT_EQ(example_kernels(e.name, false), e.unfused) << e.name;
  }
}

TEST(FusionForms, EveryFormConvertsFusedAndUnfused) {
  for (const FusionCase& c : fusion_cases()) {
    for (bool fused : {true, false}) {
      SCOPED_TRACE(std::string(c.name) + (fused ? " fused" : " unfused"));
      KernelGraph g = graph_of(fusion_program(c), fused);
      EXPECT_EQ(g.fused, fused);
      EXPECT_FALSE(g.outputs.empty());
      for (const Kernel* k : compute_kernels(g))
        EXPECT_FALSE(k->ops.empty());
      EXPECT_NE(kernel_graph_dot(g).find("digraph"), std::string::npos);
    }
    // Unfused never has fewer kernels than fused.
    EXPECT_LE(kernels(fusion_program(c)), kernels(fusion_program(c), false)) << c.name;
  }
}

TEST(FusionForms, UnfusedIsOneKernelPerOperation) {
  // map, map, fold: three operations, three kernels; fused: one.
  std::string text = std::string(kVec) +
                     "(fold (lambda ((a i64) (b i64)) (+ a b)) 0 (map (lambda ((x i64)) (+ x 1)) "
                     "(map (lambda ((x i64)) (* x 2)) xs))))";
  EXPECT_EQ(kernels(text, false), 3);
  EXPECT_EQ(kernels(text), 1);
}

} // namespace
} // namespace strata
