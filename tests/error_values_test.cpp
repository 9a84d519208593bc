// Run-time errors show their values (issue 9, item 3): every error class
// prints the values that caused it, and an error raised while a collective
// operation computes one of its elements names that element and the operation
// with its position ("..., while computing element (4,2) of `generate` at
// test.strata:2:3"). Loops name their iteration.
//
// tests/runtime_errors_test.cpp checks kinds and positions; this file checks
// the full message text, so a reader sees exactly what a user sees.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/test_util.h"

namespace strata {
namespace {

using namespace strata::test;
using I = int64_t;

// The full `file:line:col: error: message` line of a program that must fail.
std::string error_line(const std::string& text, const std::vector<Array>& inputs = {}) {
  try {
    (void)run_all(text, inputs);
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error from:\n" << text;
  return "";
}

const Array kXs = array_of<I>({0, 1, 2, 3, 4, 5});

TEST(ErrorValues, BoundsInGenerateNamesIndexShapeAndElement) {
  EXPECT_EQ(error_line("(program ((xs (array i64 1)))\n"
                       "  (generate (ix 6 3)\n"
                       "    (lambda ((i (ix 2))) (! xs (ix (+ (proj 0 i) (proj 1 i)))))))",
                       {kXs}),
            "test.strata:3:26: error: index (6) out of bounds for shape (6) in `!` of `xs`, "
            "while computing element (4,2) of `generate` at test.strata:2:3");
}

TEST(ErrorValues, LinearReadInMap) {
  EXPECT_EQ(error_line("(program ((xs (array i64 1)))\n"
                       "  (map (lambda ((x i64)) (!! xs (* x 2))) xs))",
                       {kXs}),
            "test.strata:2:26: error: linear index 6 out of bounds for size 6 (shape (6)) in `!!` "
            "of `xs`, while computing element (3) of `map` at test.strata:2:3");
}

TEST(ErrorValues, DivisionByZeroShowsBothOperandsInZipWith) {
  EXPECT_EQ(error_line("(program ((xs (array i64 1)))\n"
                       "  (zipwith (lambda ((x i64) (y i64)) (mod (+ x 10) (- y 2))) xs xs))",
                       {kXs}),
            "test.strata:2:38: error: division by zero in `mod` (12 mod 0), while computing "
            "element (2) of `zipwith` at test.strata:2:3");
  for (const char* op : {"quot", "rem", "div"}) {
    std::string line = error_line(std::string("(program () (unit (") + op + " -7i8 0i8)))");
    EXPECT_NE(line.find(std::string("(-7 ") + op + " 0)"), std::string::npos) << line;
    EXPECT_NE(line.find("element () of `unit`"), std::string::npos) << line;
  }
}

TEST(ErrorValues, ReshapeShowsBothShapesAndSizes) {
  EXPECT_EQ(error_line("(program ((xs (array i64 1)))\n  (reshape (ix 4 2) xs))", {kXs}),
            "test.strata:2:3: error: reshape from shape (6) (6 elements) to shape (4,2) (8 "
            "elements): sizes differ");
}

TEST(ErrorValues, Fold1OverAnEmptyRowNamesTheRow) {
  EXPECT_EQ(error_line("(program ()\n"
                       "  (fold1 (lambda ((a i64) (b i64)) (+ a b)) (fill (ix 2 3 0) 1)))"),
            "test.strata:2:3: error: fold1 over an empty row (row (0,0) of shape (2,3,0))");
}

TEST(ErrorValues, ErrorInAFoldNamesTheRow) {
  EXPECT_EQ(error_line("(program ((m (array i64 2)))\n"
                       "  (fold (lambda ((a i64) (b i64)) (quot a b)) 100 m))",
                       {array_of<I>({1, 2, 3, 4, 0, 6}, {2, 3})}),
            "test.strata:2:35: error: division by zero in `quot` (25 quot 0), while computing "
            "element (1) of `fold` at test.strata:2:3");
}

TEST(ErrorValues, ErrorInAFoldsegNamesTheSegment) {
  std::string line = error_line("(program ((xs (array i64 1)))\n"
                                "  (foldseg (lambda ((a i64) (b i64)) (quot b a)) 0 xs\n"
                                "           (use (array i64 (2) 2 4))))",
                                {kXs});
  EXPECT_NE(line.find("(0 quot 0)"), std::string::npos) << line;
  EXPECT_NE(line.find("while computing element (0) of `foldseg` at test.strata:2:3"),
            std::string::npos)
      << line;
}

TEST(ErrorValues, ErrorInAScanNamesTheRow) {
  std::string line = error_line("(program ((m (array i64 2)))\n"
                                "  (scanl1 (lambda ((a i64) (b i64)) (quot a b)) m))",
                                {array_of<I>({1, 2, 3, 4, 0, 6}, {2, 3})});
  EXPECT_NE(line.find("(4 quot 0)"), std::string::npos) << line;
  EXPECT_NE(line.find("while computing row (1) of `scanl1` at test.strata:2:3"), std::string::npos)
      << line;
}

TEST(ErrorValues, PermuteTargetNamesTheSourceElement) {
  EXPECT_EQ(error_line("(program ((xs (array i64 1)))\n"
                       "  (permute (lambda ((a i64) (b i64)) (+ a b)) (fill (ix 3) 0)\n"
                       "    (lambda ((i (ix 1))) (ix (- 5 (proj 0 i)))) xs))",
                       {kXs}),
            "test.strata:2:3: error: target index (5) out of bounds for shape (3) in `permute` "
            "(source element (0)), while computing source element (0) of `permute`");
}

TEST(ErrorValues, BackpermuteSourceNamesTheResultElement) {
  EXPECT_EQ(error_line("(program ((xs (array i64 1)))\n"
                       "  (backpermute (ix 4) (lambda ((i (ix 1))) (ix (* 2 (proj 0 i)))) xs))",
                       {kXs}),
            "test.strata:2:3: error: source index (6) out of bounds for shape (6) in "
            "`backpermute`, while computing element (3) of `backpermute`");
}

TEST(ErrorValues, StencilNamesTheCell) {
  std::string line = error_line("(program ((m (array i64 2)))\n"
                                "  (stencil (3 3) clamp\n"
                                "    (lambda ((nb (window i64 2))) (quot 1 (at nb 1 -1))) m))",
                                {array_of<I>({1, 2, 3, 0, 5, 6}, {2, 3})});
  EXPECT_NE(line.find("(1 quot 0)"), std::string::npos) << line;
  // Cell (0,0) reads (1,-1), clamped to (1,0), which holds 0.
  EXPECT_NE(line.find("while computing element (0,0) of `stencil` at test.strata:2:3"),
            std::string::npos)
      << line;
}

TEST(ErrorValues, WhileAndAwhileNameTheIteration) {
  EXPECT_EQ(error_line("(program ()\n"
                       "  (unit (proj 0 (while (lambda ((s (tuple i64 i64))) (< (proj 1 s) 5))\n"
                       "    (lambda ((s (tuple i64 i64))) (tuple (quot 12 (- 3 (proj 1 s))) (+ "
                       "(proj 1 s) 1)))\n"
                       "    (tuple 0 0)))))"),
            "test.strata:3:42: error: division by zero in `quot` (12 quot 0), in iteration 3 of "
            "`while` at test.strata:2:17, while computing element () of `unit` at "
            "test.strata:2:3");
  // x = 1, 2, then 3 in the third iteration (iteration 2): quot by 3 - x = 0.
  EXPECT_EQ(error_line("(program ((xs (array i64 1)))\n"
                       "  (awhile (lambda ((s (array i64 1))) (unit true))\n"
                       "    (lambda ((s (array i64 1)))\n"
                       "      (map (lambda ((x i64)) (+ (+ x 1) (* 0 (quot 1 (- 3 x))))) s))\n"
                       "    xs))",
                       {array_of<I>({1})}),
            "test.strata:4:46: error: division by zero in `quot` (1 quot 0), while computing "
            "element (0) of `map` at test.strata:4:7, in iteration 2 of `awhile` at "
            "test.strata:2:3");
}

} // namespace
} // namespace strata
