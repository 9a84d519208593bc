// The reference interpreter against docs/language.md (Exp and Acc): every scalar
// and collective form on small inputs, with results computed by hand (the
// comments show the arithmetic), including rank 0 and zero-length dimensions.
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "tests/test_util.h"

namespace strata {
namespace {

using namespace strata::test;
using I = int64_t;
using Is = std::vector<int64_t>;

// Checks shape, leaf type and values of one leaf of an array.
template <class T>
void expect_array(const Array& a, const Shape& shape, const std::vector<T>& values,
                  size_t leaf = 0) {
  EXPECT_EQ(a.shape(), shape);
  ASSERT_LT(leaf, a.num_leaves());
  EXPECT_EQ(a.leaf_kind(leaf), kind_of<T>);
  EXPECT_EQ(values_of<T>(a, leaf), values);
}

// `(program () BODY)`, and with one rank-1 i64 parameter xs, one rank-2 i64 parameter m.
Array run0(const std::string& body) {
  return run1("(program () " + body + ")");
}
Array run_xs(const std::string& body, const Is& xs) {
  return run1("(program ((xs (array i64 1))) " + body + ")", {array_of<I>(xs)});
}
// m = [[1 2 3] [4 5 6]]
Array run_m(const std::string& body) {
  return run1("(program ((m (array i64 2))) " + body + ")",
              {array_of<I>({1, 2, 3, 4, 5, 6}, {2, 3})});
}

// ------------------------------------------------------------------ use, unit
TEST(InterpreterUse, ScalarLiteralRowMajor) {
  expect_array<int32_t>(run0("(use (array i32 (2 3) 1 2 3 4 5 6))"), {2, 3}, {1, 2, 3, 4, 5, 6});
  expect_array<I>(run0("(use (array i64 () 7))"), {}, {7});
  expect_array<double>(run0("(use (array f64 (0)))"), {0}, {});
  expect_array<double>(run0("(use (array f64 (2 0)))"), {2, 0}, {});
}

TEST(InterpreterUse, TupleElementsAreStructOfArrays) {
  Array a = run0("(use (array (tuple i32 f32) (3) (1 0.5) (2 1.5) (3 2.5)))");
  ASSERT_EQ(a.num_leaves(), 2u);
  expect_array<int32_t>(a, {3}, {1, 2, 3}, 0);
  expect_array<float>(a, {3}, {0.5f, 1.5f, 2.5f}, 1);
}

TEST(InterpreterUnit, RankZero) {
  expect_array<I>(run0("(unit (+ 2 3))"), {}, {5});
  Array t = run0("(unit (tuple 1i32 true))");
  expect_array<int32_t>(t, {}, {1}, 0);
  expect_array<bool>(t, {}, {true}, 1);
}

// ---------------------------------------------------------------- generate, fill
TEST(InterpreterGenerate, RanksZeroToThree) {
  expect_array<I>(run0("(generate (ix) (lambda ((i (ix 0))) 42))"), {}, {42});
  expect_array<I>(run0("(generate (ix 4) (lambda ((i (ix 1))) (* (proj 0 i) (proj 0 i))))"), {4},
                  {0, 1, 4, 9});
  expect_array<I>(
      run0("(generate (ix 2 3) (lambda ((i (ix 2))) (+ (* 10 (proj 0 i)) (proj 1 i))))"), {2, 3},
      {0, 1, 2, 10, 11, 12});
  expect_array<I>(run0("(generate (ix 2 2 2) (lambda ((i (ix 3)))"
                       "  (+ (* 100 (proj 0 i)) (+ (* 10 (proj 1 i)) (proj 2 i)))))"),
                  {2, 2, 2}, {0, 1, 10, 11, 100, 101, 110, 111});
}

TEST(InterpreterGenerate, RankFourFoldsAndReshapes) {
  // element (a,b,c,d) = 1000a + 100b + 10c + d over shape (2,1,2,3); fold sums the innermost d.
  const char* gen = "(generate (ix 2 1 2 3) (lambda ((i (ix 4)))"
                    "  (+ (+ (* 1000 (proj 0 i)) (* 100 (proj 1 i))) (+ (* 10 (proj 2 i)) (proj 3 i)))))";
  expect_array<I>(run0(gen), {2, 1, 2, 3},
                  {0, 1, 2, 10, 11, 12, 1000, 1001, 1002, 1010, 1011, 1012});
  expect_array<I>(run0(std::string("(fold (lambda ((a i64) (b i64)) (+ a b)) 0 ") + gen + ")"), {2, 1, 2},
                  {3, 33, 3003, 3033});
  expect_array<I>(run0(std::string("(reshape (ix 3 4) ") + gen + ")"), {3, 4},
                  {0, 1, 2, 10, 11, 12, 1000, 1001, 1002, 1010, 1011, 1012});
}

TEST(InterpreterGenerate, ZeroLengthDimensions) {
  expect_array<I>(run0("(generate (ix 0 5) (lambda ((i (ix 2))) 1))"), {0, 5}, {});
  expect_array<I>(run0("(generate (ix 5 0) (lambda ((i (ix 2))) 1))"), {5, 0}, {});
}

TEST(InterpreterFill, EveryElement) {
  expect_array<int32_t>(run0("(fill (ix 2 2) 7i32)"), {2, 2}, {7, 7, 7, 7});
  expect_array<double>(run0("(fill (ix) 1.5)"), {}, {1.5});
  expect_array<I>(run0("(fill (ix 0) 3)"), {0}, {});
}

// ---------------------------------------------------------------- map, zipwith
TEST(InterpreterMap, SameShape) {
  expect_array<I>(run_xs("(map (lambda ((x i64)) (* x 2)) xs)", {1, 2, 3}), {3}, {2, 4, 6});
  expect_array<I>(run_m("(map (lambda ((x i64)) (- 0 x)) m)"), {2, 3}, {-1, -2, -3, -4, -5, -6});
  expect_array<I>(run_xs("(map (lambda ((x i64)) (* x 2)) xs)", {}), {0}, {});
  expect_array<I>(run0("(map (lambda ((x i64)) (* x 2)) (unit 5))"), {}, {10});
  Array t = run_xs("(map (lambda ((x i64)) (tuple (cast f64 x) (> x 1))) xs)", {1, 2});
  expect_array<double>(t, {2}, {1.0, 2.0}, 0);
  expect_array<bool>(t, {2}, {false, true}, 1);
}

TEST(InterpreterZipWith, ShapeIsTheIntersection) {
  // (2,3) [[1 2 3] [4 5 6]] with (3,2) [[10 20] [30 40] [50 60]]: (2,2), (- x y).
  expect_array<I>(run_m("(zipwith (lambda ((x i64) (y i64)) (- x y)) m"
                        "  (use (array i64 (3 2) 10 20 30 40 50 60)))"),
                  {2, 2}, {1 - 10, 2 - 20, 4 - 30, 5 - 40});
  expect_array<I>(
      run_xs("(zipwith (lambda ((x i64) (y i64)) (- y x)) xs (use (array i64 (2) 10 20)))",
             {1, 2, 3, 4}),
      {2}, {9, 18});
  expect_array<I>(run_xs("(zipwith (lambda ((x i64) (y i64)) (+ x y)) xs xs)", {}), {0}, {});
  expect_array<I>(run0("(zipwith (lambda ((x i64) (y i64)) (- x y)) (unit 5) (unit 7))"), {}, {-2});
}

// ------------------------------------------------------------------------ fold
const char* kSum = "(lambda ((a i64) (b i64)) (+ a b))";
const char* kSub = "(lambda ((a i64) (b i64)) (- a b))";

std::string with(const char* f, const std::string& rest) {
  return std::string(f) + " " + rest;
}

TEST(InterpreterFold, SeedUsedOncePerRow) {
  // Accelerate: foldAll (+) 42 [0..9] = 42 + 45 = 87.
  expect_array<I>(
      run0("(fold " + with(kSum, "42 (generate (ix 10) (lambda ((i (ix 1))) (proj 0 i))))")), {},
      {87});
  // Rows [1 2 3] and [4 5 6] with seed 10: 16 and 25.
  expect_array<I>(run_m("(fold " + with(kSum, "10 m)")), {2}, {16, 25});
}

TEST(InterpreterFold, OperandOrderIsAccThenElement) {
  // (f acc x) = acc - x: 100-1-2-3 = 94, 100-4-5-6 = 85.
  expect_array<I>(run_m("(fold " + with(kSub, "100 m)")), {2}, {94, 85});
}

TEST(InterpreterFold, ZeroLengthRowsGiveTheSeed) {
  expect_array<I>(run0("(fold " + with(kSum, "5 (fill (ix 3 0) 1))")), {3}, {5, 5, 5});
  expect_array<I>(run_xs("(fold " + with(kSum, "5 xs)"), {}), {}, {5});
  expect_array<I>(run0("(fold " + with(kSum, "5 (fill (ix 0 3) 1))")), {0}, {});
}

TEST(InterpreterFold1, NoSeed) {
  // 1-2-3 = -4, 4-5-6 = -7.
  expect_array<I>(run_m("(fold1 " + with(kSub, "m)")), {2}, {-4, -7});
  expect_array<double>(
      run0("(fold1 (lambda ((a f64) (b f64)) (max a b)) (use (array f64 (4) 1 7.5 -2 3)))"), {},
      {7.5});
  expect_array<I>(run_xs("(fold1 " + with(kSub, "xs)"), {9}), {}, {9});
}

TEST(InterpreterFoldSeg, SegmentsWithEmptyOnes) {
  // [1 2 | | 3 4 5 | 6], seed 100: 103, 100, 112, 106.
  const std::string segs = "(use (array i64 (4) 2 0 3 1))";
  expect_array<I>(run_xs("(foldseg " + with(kSum, "100 xs " + segs + ")"), {1, 2, 3, 4, 5, 6}), {4},
                  {103, 100, 112, 106});
  // (f acc x) = acc - x from 0: -3, 0, -12, -6.
  expect_array<I>(run_xs("(foldseg " + with(kSub, "0 xs " + segs + ")"), {1, 2, 3, 4, 5, 6}), {4},
                  {-3, 0, -12, -6});
}

TEST(InterpreterFoldSeg, RankTwo) {
  // Rows [1 | | 2 3 4] and [5 | | 6 7 8].
  Array r = run1("(program ((m (array i64 2))) (foldseg " +
                     with(kSum, "0 m (use (array i64 (3) 1 0 3))))"),
                 {array_of<I>({1, 2, 3, 4, 5, 6, 7, 8}, {2, 4})});
  expect_array<I>(r, {2, 3}, {1, 0, 9, 5, 0, 21});
}

TEST(InterpreterFoldSeg, ZeroLengthRows) {
  // Two empty segments of an empty row give the seed twice; no segments give no columns.
  expect_array<I>(run_xs("(foldseg " + with(kSum, "7 xs (use (array i64 (2) 0 0)))"), {}), {2},
                  {7, 7});
  expect_array<I>(run0("(foldseg " + with(kSum, "7 (fill (ix 2 0) 1) (use (array i64 (0))))")),
                  {2, 0}, {});
}

// ------------------------------------------------------------------------ scans
// All with (- a b) on [1 2 3] and seed 100.
TEST(InterpreterScan, LeftScansCombineAccThenElement) {
  // scanl: 100, 100-1, 99-2, 97-3.
  expect_array<I>(run_xs("(scanl " + with(kSub, "100 xs)"), {1, 2, 3}), {4}, {100, 99, 97, 94});
  // scanl1: 1, 1-2, -1-3.
  expect_array<I>(run_xs("(scanl1 " + with(kSub, "xs)"), {1, 2, 3}), {3}, {1, -1, -4});
}

TEST(InterpreterScan, RightScansCombineElementThenAcc) {
  // scanr: ends with 100; 3-100 = -97; 2-(-97) = 99; 1-99 = -98.
  expect_array<I>(run_xs("(scanr " + with(kSub, "100 xs)"), {1, 2, 3}), {4}, {-98, 99, -97, 100});
  // scanr1: 3; 2-3 = -1; 1-(-1) = 2.
  expect_array<I>(run_xs("(scanr1 " + with(kSub, "xs)"), {1, 2, 3}), {3}, {2, -1, 3});
}

TEST(InterpreterScan, ScanlPrimeGivesExclusiveScanAndTotals) {
  auto r = run_all("(program ((xs (array i64 1))) (scanl' " + with(kSub, "100 xs))"),
                   {array_of<I>({1, 2, 3})});
  ASSERT_EQ(r.size(), 2u);
  expect_array<I>(r[0], {3}, {100, 99, 97});
  expect_array<I>(r[1], {}, {94});
  auto r2 = run_all("(program ((m (array i64 2))) (scanl' " + with(kSum, "0 m))"),
                    {array_of<I>({1, 2, 3, 4, 5, 6}, {2, 3})});
  ASSERT_EQ(r2.size(), 2u);
  expect_array<I>(r2[0], {2, 3}, {0, 1, 3, 0, 4, 9});
  expect_array<I>(r2[1], {2}, {6, 15});
}

TEST(InterpreterScan, RankTwoScansEachRow) {
  expect_array<I>(run_m("(scanl " + with(kSum, "0 m)")), {2, 4}, {0, 1, 3, 6, 0, 4, 9, 15});
  expect_array<I>(run_m("(scanr " + with(kSum, "0 m)")), {2, 4}, {6, 5, 3, 0, 15, 11, 6, 0});
  expect_array<I>(run_m("(scanl1 " + with(kSum, "m)")), {2, 3}, {1, 3, 6, 4, 9, 15});
  expect_array<I>(run_m("(scanr1 " + with(kSum, "m)")), {2, 3}, {6, 5, 3, 15, 11, 6});
}

TEST(InterpreterScan, ZeroLengthRows) {
  expect_array<I>(run_xs("(scanl " + with(kSum, "7 xs)"), {}), {1}, {7});
  expect_array<I>(run_xs("(scanr " + with(kSum, "7 xs)"), {}), {1}, {7});
  expect_array<I>(run_xs("(scanl1 " + with(kSum, "xs)"), {}), {0}, {});
  expect_array<I>(run_xs("(scanr1 " + with(kSum, "xs)"), {}), {0}, {});
  expect_array<I>(run0("(scanl " + with(kSum, "7 (fill (ix 2 0) 1))")), {2, 1}, {7, 7});
  auto r =
      run_all("(program ((xs (array i64 1))) (scanl' " + with(kSum, "7 xs))"), {array_of<I>({})});
  ASSERT_EQ(r.size(), 2u);
  expect_array<I>(r[0], {0}, {});
  expect_array<I>(r[1], {}, {7});
}

// ---------------------------------------------------------------------- permute
TEST(InterpreterPermute, HistogramDropsIgnoredKeys) {
  // keys 0 2 2 1 2 -1 into 3 bins; the negative key is ignored.
  expect_array<I>(run_xs("(permute " + with(kSum, "(fill (ix 3) 0)"
                                                  "  (lambda ((i (ix 1))) (let ((k (! xs i)))"
                                                  "    (if (< k 0) (ignore 1) (ix k))))"
                                                  "  (map (lambda ((k i64)) 1) xs))"),
                         {0, 2, 2, 1, 2, -1}),
                  {3}, {1, 1, 3});
}

TEST(InterpreterPermute, CombinesNewWithOldInSourceOrder) {
  // Sources 1 2 3 4 go to bins 0 1 0 1 of [100 200 300], comb = new - old:
  // bin 0: 1-100 = -99, then 3-(-99) = 102; bin 1: 2-200 = -198, 4-(-198) = 202; bin 2 kept.
  expect_array<I>(
      run_xs("(permute " + with(kSub, "(use (array i64 (3) 100 200 300))"
                                      "  (lambda ((i (ix 1))) (ix (rem (proj 0 i) 2))) xs)"),
             {1, 2, 3, 4}),
      {3}, {102, 202, 300});
}

TEST(InterpreterPermute, RankChangesAndIgnore) {
  // Row sums of m into a vector.
  expect_array<I>(
      run_m("(permute " + with(kSum, "(fill (ix 2) 0) (lambda ((i (ix 2))) (ix (proj 0 i))) m)")),
      {2}, {6, 15});
  // Everything into a rank-0 target: 1+...+6 = 21 on top of 0.
  expect_array<I>(run_m("(permute " + with(kSum, "(unit 0) (lambda ((i (ix 2))) (ix)) m)")), {},
                  {21});
  // A 2-D target where only the diagonal of m lands; the rest keeps the default -1.
  expect_array<I>(
      run_m("(permute " +
            with(kSum, "(fill (ix 2 3) -1)"
                       "  (lambda ((i (ix 2))) (if (== (proj 0 i) (proj 1 i)) i (ignore 2)))"
                       "  m)")),
      {2, 3}, {1 - 1, -1, -1, -1, 5 - 1, -1});
  // No source elements: the defaults.
  expect_array<I>(
      run_xs("(permute " + with(kSum, "(fill (ix 2) 9) (lambda ((i (ix 1))) i) xs)"), {}), {2},
      {9, 9});
}

// ----------------------------------------------------- backpermute, reshape
TEST(InterpreterBackpermute, TransposeAndReverse) {
  expect_array<I>(
      run_m("(backpermute (ix 3 2) (lambda ((i (ix 2))) (ix (proj 1 i) (proj 0 i))) m)"), {3, 2},
      {1, 4, 2, 5, 3, 6});
  expect_array<I>(run_xs("(backpermute (shape xs) (lambda ((i (ix 1)))"
                         "  (ix (- (- (size xs) 1) (proj 0 i)))) xs)",
                         {1, 2, 3, 4}),
                  {4}, {4, 3, 2, 1});
  expect_array<I>(run_xs("(backpermute (ix) (lambda ((i (ix 0))) (ix 2)) xs)", {5, 6, 7}), {}, {7});
  expect_array<I>(run_xs("(backpermute (ix 0) (lambda ((i (ix 1))) (ix 99)) xs)", {5}), {0}, {});
}

TEST(InterpreterReshape, KeepsRowMajorOrder) {
  expect_array<I>(run_m("(reshape (ix 3 2) m)"), {3, 2}, {1, 2, 3, 4, 5, 6});
  expect_array<I>(run_m("(reshape (ix 6) m)"), {6}, {1, 2, 3, 4, 5, 6});
  expect_array<I>(run_xs("(reshape (ix) xs)", {8}), {}, {8});
  expect_array<I>(run0("(reshape (ix 5 0) (fill (ix 0 5) 1))"), {5, 0}, {});
}

// --------------------------------------------------------- replicate, slice
TEST(InterpreterReplicate, NewOuterInnerAndMiddleDimensions) {
  expect_array<I>(run_xs("(replicate (spec 2 all) xs)", {1, 2, 3}), {2, 3}, {1, 2, 3, 1, 2, 3});
  expect_array<I>(run_xs("(replicate (spec all 2) xs)", {1, 2, 3}), {3, 2}, {1, 1, 2, 2, 3, 3});
  expect_array<I>(run_m("(replicate (spec all 2 all) m)"), {2, 2, 3},
                  {1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6});
  expect_array<I>(run0("(replicate (spec 3) (unit 7))"), {3}, {7, 7, 7});
  expect_array<I>(run_xs("(replicate (spec 0 all) xs)", {1, 2, 3}), {0, 3}, {});
  expect_array<I>(run_m("(replicate (spec all all) m)"), {2, 3}, {1, 2, 3, 4, 5, 6});
}

TEST(InterpreterSlice, FixAndKeepDimensions) {
  expect_array<I>(run_m("(slice m (spec 1 all))"), {3}, {4, 5, 6});
  expect_array<I>(run_m("(slice m (spec all 2))"), {2}, {3, 6});
  expect_array<I>(run_m("(slice m (spec all all))"), {2, 3}, {1, 2, 3, 4, 5, 6});
  expect_array<I>(run_m("(slice m (spec 0 1))"), {}, {2});
  // t[i][j][k] = 4i + 2j + k; fixing j = 1 keeps t[0][1][*] = 2 3 and t[1][1][*] = 6 7.
  expect_array<I>(
      run0("(slice (generate (ix 2 2 2) (lambda ((i (ix 3)))"
           "  (+ (* 4 (proj 0 i)) (+ (* 2 (proj 1 i)) (proj 2 i))))) (spec all 1 all))"),
      {2, 2}, {2, 3, 6, 7});
  expect_array<I>(run0("(slice (fill (ix 0 3) 1) (spec all 2))"), {0}, {});
}

// ---------------------------------------------------------------------- stencil
// 1-D, window 3, on [1 2 3 4]: 100 * left + 10 * centre + right.
std::string stencil3(const std::string& boundary) {
  return "(stencil (3) " + boundary +
         " (lambda ((nb (window i64 1))) (+ (* 100 (at nb -1)) (+ (* 10 (at nb 0)) (at nb 1)))) "
         "xs)";
}

TEST(InterpreterStencil, OneDimensionalBoundaries) {
  const Is xs = {1, 2, 3, 4};
  expect_array<I>(run_xs(stencil3("clamp"), xs), {4}, {112, 123, 234, 344});
  expect_array<I>(run_xs(stencil3("mirror"), xs), {4}, {212, 123, 234, 343});
  expect_array<I>(run_xs(stencil3("wrap"), xs), {4}, {412, 123, 234, 341});
  expect_array<I>(run_xs(stencil3("(constant 9)"), xs), {4}, {912, 123, 234, 349});
  expect_array<I>(run_xs(stencil3("clamp"), {}), {0}, {});
}

// Window 5: the five neighbours as the digits of one number.
std::string stencil5(const std::string& boundary) {
  return "(stencil (5) " + boundary +
         " (lambda ((nb (window i64 1))) (+ (* 10000 (at nb -2)) (+ (* 1000 (at nb -1))"
         " (+ (* 100 (at nb 0)) (+ (* 10 (at nb 1)) (at nb 2)))))) xs)";
}

TEST(InterpreterStencil, WideWindowOnShortArray) {
  // On [1 2 3]: mirror -2 -> 2, -1 -> 1, 3 -> 1, 4 -> 0; wrap -2 -> 1, -1 -> 2, 3 -> 0, 4 -> 1.
  const Is xs = {1, 2, 3};
  expect_array<I>(run_xs(stencil5("clamp"), xs), {3}, {11123, 11233, 12333});
  expect_array<I>(run_xs(stencil5("mirror"), xs), {3}, {32123, 21232, 12321});
  expect_array<I>(run_xs(stencil5("wrap"), xs), {3}, {23123, 31231, 12312});
  expect_array<I>(run_xs(stencil5("(constant 0)"), xs), {3}, {123, 1230, 12300});
  // On [1 2] the window is wider than the array: clamp and wrap still apply per coordinate.
  expect_array<I>(run_xs(stencil5("clamp"), {1, 2}), {2}, {11122, 11222});
  expect_array<I>(run_xs(stencil5("wrap"), {1, 2}), {2}, {12121, 21212});
}

// 2-D, window (3 3), on [[1 2 3] [4 5 6] [7 8 9]]: 10 * up-left + down-right.
std::string corners(const std::string& boundary) {
  return "(program ((g (array i64 2))) (stencil (3 3) " + boundary +
         " (lambda ((nb (window i64 2))) (+ (* 10 (at nb -1 -1)) (at nb 1 1))) g))";
}

TEST(InterpreterStencil, TwoDimensionalBoundaries) {
  const Array g = array_of<I>({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
  expect_array<I>(run1(corners("clamp"), {g}), {3, 3}, {15, 16, 26, 18, 19, 29, 48, 49, 59});
  expect_array<I>(run1(corners("mirror"), {g}), {3, 3}, {55, 46, 55, 28, 19, 28, 55, 46, 55});
  expect_array<I>(run1(corners("wrap"), {g}), {3, 3}, {95, 76, 84, 38, 19, 27, 62, 43, 51});
  expect_array<I>(run1(corners("(constant 0)"), {g}), {3, 3}, {5, 6, 0, 8, 19, 20, 0, 40, 50});
}

TEST(InterpreterStencil, WindowSizesAreOutermostFirst) {
  // Window (1 3) on m reads left/right neighbours only: 10 * left + right, constant 0.
  expect_array<I>(run_m("(stencil (1 3) (constant 0)"
                        "  (lambda ((nb (window i64 2))) (+ (* 10 (at nb 0 -1)) (at nb 0 1))) m)"),
                  {2, 3}, {2, 13, 20, 5, 46, 50});
  // Window (3 1) with clamp reads up/down: 10 * up + down.
  expect_array<I>(run_m("(stencil (3 1) clamp"
                        "  (lambda ((nb (window i64 2))) (+ (* 10 (at nb -1 0)) (at nb 1 0))) m)"),
                  {2, 3}, {14, 25, 36, 14, 25, 36});
  // Rank 0: the window is the element.
  expect_array<I>(run0("(stencil () wrap (lambda ((nb (window i64 0))) (+ (at nb) 1)) (unit 5))"),
                  {}, {6});
}

// ------------------------------------------------------- awhile, acond, atrace
const char* kHalving =
    "(program ((xs (array f64 1)))"
    "  (awhile (lambda ((s (array f64 1)))"
    "            (map (lambda ((m f64)) (>= m 1.0))"
    "                 (fold1 (lambda ((a f64) (b f64)) (max a b)) (reshape (ix (size s)) s))))"
    "          (lambda ((s (array f64 1))) (map (lambda ((x f64)) (/ x 2.0)) s))"
    "          xs))";

TEST(InterpreterAwhile, HalvingLoop) {
  // max 8 -> 4 -> 2 -> 1 -> 0.5: four halvings.
  expect_array<double>(run1(kHalving, {array_of<double>({8.0, 3.0})}), {2}, {0.5, 0.1875});
  // Condition false at once: the initial array.
  expect_array<double>(run1(kHalving, {array_of<double>({0.5})}), {1}, {0.5});
}

TEST(InterpreterAwhile, TupleStateThroughAtupleAndAproj) {
  auto r = run_all("(program ((xs (array f64 1)))"
                   "  (awhile (lambda ((s (tuple (array i64 0) (array f64 1))))"
                   "            (map (lambda ((m f64)) (>= m 1.0))"
                   "                 (fold1 (lambda ((a f64) (b f64)) (max a b)) (aproj 1 s))))"
                   "          (lambda ((s (tuple (array i64 0) (array f64 1))))"
                   "            (atuple (map (lambda ((n i64)) (+ n 1)) (aproj 0 s))"
                   "                    (map (lambda ((x f64)) (/ x 2.0)) (aproj 1 s))))"
                   "          (atuple (unit 0) xs)))",
                   {array_of<double>({8.0, 3.0})});
  ASSERT_EQ(r.size(), 2u);
  expect_array<I>(r[0], {}, {4});
  expect_array<double>(r[1], {2}, {0.5, 0.1875});
}

TEST(InterpreterAcond, BranchesOfDifferentShapesAndOnlyTheTakenOneRuns) {
  // The untaken branch would fail (reshape of 3 elements to 7).
  const std::string p =
      "(acond (> (size xs) 2) (map (lambda ((x i64)) (* x 10)) xs) (reshape (ix 7) xs))";
  expect_array<I>(run_xs(p, {1, 2, 3}), {3}, {10, 20, 30});
  // The branches differ in shape; the other branch would fail here too (reshape of 1 to 7).
  const std::string q = "(acond (> (size xs) 2) (reshape (ix 7) xs) (fill (ix 2) 0))";
  expect_array<I>(run_xs(q, {1}), {2}, {0, 0});
  expect_array<I>(run_xs(q, {1, 2, 3, 4, 5, 6, 7}), {7}, {1, 2, 3, 4, 5, 6, 7});
}

TEST(InterpreterAtrace, IsTheIdentityAndPrintsWhenTracing) {
  Program p = parse_and_check(
      "(program ((xs (array i64 1)))"
      "  (alet ((a (atrace \"shared\" (map (lambda ((x i64)) (trace \"x\" (* x 2))) xs))))"
      "    (zipwith (lambda ((u i64) (v i64)) (+ u v)) a a)))");
  std::ostringstream log;
  auto r = interpret(p, {array_of<I>({1, 2})}, InterpreterOptions{&log});
  ASSERT_EQ(r.size(), 1u);
  expect_array<I>(r[0], {2}, {4, 8});
  const std::string out = log.str();
  // alet shares: the bound array (and its traced elements) is computed once.
  auto count = [&](const std::string& s) {
    size_t n = 0;
    for (size_t at = out.find(s); at != std::string::npos; at = out.find(s, at + 1))
      ++n;
    return n;
  };
  EXPECT_EQ(count("atrace shared"), 1u) << out;
  EXPECT_EQ(count("trace x: 2\n"), 1u) << out;
  EXPECT_EQ(count("trace x: 4\n"), 1u) << out;
  // Without a trace stream, nothing changes.
  expect_array<I>(interpret(p, {array_of<I>({1, 2})})[0], {2}, {4, 8});
}

TEST(InterpreterAtuple, ResultsAreFlattenedInOrder) {
  auto r = run_all("(program ((xs (array i64 1)))"
                   "  (atuple xs (aproj 1 (atuple (unit 1) (atuple (unit 2) (unit 3))))))",
                   {array_of<I>({9})});
  ASSERT_EQ(r.size(), 3u);
  expect_array<I>(r[0], {1}, {9});
  expect_array<I>(r[1], {}, {2});
  expect_array<I>(r[2], {}, {3});
  expect_array<I>(run0("(alet ((a (unit 1)) (b (map (lambda ((x i64)) (+ x 1)) a))) b)"), {}, {2});
}

// ---------------------------------------------------------------- scalar forms
TEST(InterpreterScalar, LetIsSequential) {
  // a = 1, b = 2, then a shadowed by 20: 22.
  expect_array<I>(run0("(unit (let ((a 1) (b (+ a 1)) (a (* b 10))) (+ a b)))"), {}, {22});
}

TEST(InterpreterScalar, IfEvaluatesOnlyTheTakenBranch) {
  expect_array<I>(run0("(unit (if true 1 (quot 1 0)))"), {}, {1});
  expect_array<I>(run0("(unit (if false (quot 1 0) 2))"), {}, {2});
}

TEST(InterpreterScalar, TupleProjIxCast) {
  expect_array<double>(run0("(unit (proj 0 (proj 1 (tuple 1 (tuple 2.5 true)))))"), {}, {2.5});
  Array ix = run0("(unit (ix 1 2))");
  expect_array<I>(ix, {}, {1}, 0);
  expect_array<I>(ix, {}, {2}, 1);
  expect_array<float>(run0("(unit (cast f32 3))"), {}, {3.0f});
}

TEST(InterpreterScalar, WhileCapturesEnclosingVariables) {
  // Real mandelbrot iteration z <- z*z + c from 0 while z*z <= limit and n < maxit:
  // c=0 and c=-1 stay bounded (10); c=1: 0 1 2 5 (3); c=3: 0 3 (1);
  // c=0.5: 0 .5 .75 1.0625 1.62890625 3.15... (5).
  Array r =
      run1("(program ((cs (array f64 1)))"
           "  (map (lambda ((c f64))"
           "    (let ((limit 4.0) (maxit 10))"
           "      (proj 1 (while (lambda ((s (tuple f64 i64)))"
           "                       (and (< (proj 1 s) maxit) (<= (* (proj 0 s) (proj 0 s)) limit)))"
           "                     (lambda ((s (tuple f64 i64)))"
           "                       (tuple (+ (* (proj 0 s) (proj 0 s)) c) (+ (proj 1 s) 1)))"
           "                     (tuple 0.0 0)))))"
           "    cs))",
           {array_of<double>({0.0, 1.0, -1.0, 3.0, 0.5})});
  expect_array<I>(r, {5}, {10, 3, 10, 1, 5});
}

TEST(InterpreterScalar, ArrayReads) {
  Array sh = run_m("(unit (shape m))");
  expect_array<I>(sh, {}, {2}, 0);
  expect_array<I>(sh, {}, {3}, 1);
  expect_array<I>(run_m("(unit (size m))"), {}, {6});
  expect_array<I>(run_m("(generate (ix 2) (lambda ((i (ix 1))) (! m (ix (proj 0 i) 2))))"), {2},
                  {3, 6});
  expect_array<I>(run_m("(unit (!! m 4))"), {}, {5});
  expect_array<I>(run_xs("(alet ((s (unit 9))) (map (lambda ((x i64)) (+ x (the s))) xs))", {1, 2}),
                  {2}, {10, 11});
  expect_array<I>(run0("(alet ((e (fill (ix 0 4) 1))) (unit (size e)))"), {}, {0});
}

TEST(InterpreterScalar, IndexConversionsAndIgnore) {
  expect_array<I>(run0("(unit (to-index (ix 2 3) (ix 1 2)))"), {}, {5});
  Array ix = run0("(unit (from-index (ix 2 3) 4))");
  expect_array<I>(ix, {}, {1}, 0);
  expect_array<I>(ix, {}, {1}, 1);
  Array ig = run0("(unit (ignore 2))");
  expect_array<I>(ig, {}, {-1}, 0);
  expect_array<I>(ig, {}, {-1}, 1);
  expect_array<I>(run0("(unit (to-index (ix) (ix)))"), {}, {0});
}

TEST(InterpreterScalar, TraceReturnsItsValue) {
  Program p = parse_and_check("(program () (unit (+ (trace \"t\" 40) 2)))");
  std::ostringstream log;
  expect_array<I>(interpret(p, {}, InterpreterOptions{&log})[0], {}, {42});
  EXPECT_NE(log.str().find("trace t: 40"), std::string::npos) << log.str();
  EXPECT_NE(log.str().find("test.strata:1:"), std::string::npos) << log.str();
}

// ----------------------------------------- docs/language.md, Examples of the text form
TEST(InterpreterExamples, HistogramMatVecLaplacianTuples) {
  // Keys into bins of 32: 0 31 -> 0, 32 -> 1, 64 -> 2, 100 -> 3, 255 -> 7, -5 dropped.
  expect_array<I>(run1("(program ((keys (array i32 1)))"
                       "  (permute (lambda ((new i64) (old i64)) (+ new old)) (fill (ix 8) 0)"
                       "           (lambda ((i (ix 1))) (let ((k (! keys i)))"
                       "             (if (< k 0i32) (ignore 1) (ix (cast i64 (quot k 32i32))))))"
                       "           (map (lambda ((k i32)) 1) keys)))",
                       {array_of<int32_t>({0, 31, 32, 255, -5, 100, 64})}),
                  {8}, {2, 1, 1, 1, 0, 0, 0, 1});
  // [[1 2] [3 4] [5 6]] . [10 1] = [12 34 56].
  expect_array<double>(
      run1("(program ((m (array f64 2)) (v (array f64 1)))"
           "  (fold (lambda ((a f64) (b f64)) (+ a b)) 0.0"
           "        (zipwith (lambda ((x f64) (y f64)) (* x y)) m"
           "                 (replicate (spec (proj 0 (shape m)) all) v))))",
           {array_of<double>({1, 2, 3, 4, 5, 6}, {3, 2}), array_of<double>({10, 1})}),
      {3}, {12, 34, 56});
  // up + down + left + right - 4 centre, clamped, on [[1 2 3] [4 5 6] [7 8 9]]:
  // e.g. (0,0): 1 + 4 + 1 + 2 - 4 = 4; (2,2): 6 + 9 + 8 + 9 - 36 = -4.
  expect_array<float>(run1("(program ((img (array f32 2)))"
                           "  (stencil (3 3) clamp (lambda ((nb (window f32 2)))"
                           "    (- (+ (+ (at nb -1 0) (at nb 1 0)) (+ (at nb 0 -1) (at nb 0 1))) "
                           "(* 4f32 (at nb 0 0))))"
                           "    img))",
                           {array_of<float>({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3})}),
                      {3, 3}, {4, 3, 2, 1, 0, -1, -2, -3, -4});
  auto r = run_all("(program ()"
                   "  (alet ((ps (use (array (tuple i32 f32) (3) (1 0.5) (2 1.5) (3 2.5)))))"
                   "    (atuple (map (lambda ((p (tuple i32 f32))) (proj 0 p)) ps)"
                   "            (generate (ix 3) (lambda ((i (ix 1))) (proj 1 (! ps i)))))))");
  ASSERT_EQ(r.size(), 2u);
  expect_array<int32_t>(r[0], {3}, {1, 2, 3});
  expect_array<float>(r[1], {3}, {0.5f, 1.5f, 2.5f});
}

} // namespace
} // namespace strata
