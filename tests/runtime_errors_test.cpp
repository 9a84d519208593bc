// Run-time errors of the reference interpreter: kind, position and message
// content (docs/language.md, Pinned semantics: the operation, the index and the shape, and
// file:line:col for a program read from text). None of them may crash.
//
// The failing form is put at the start of line 3, indented by four spaces, so
// its position is 3:5.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/runtime_errors.h"
#include "tests/test_util.h"

namespace strata {
namespace {

using namespace strata::test;
using I = int64_t;

// Runs a program that must fail; returns its error.
Error failure(const std::string& text, const std::vector<Array>& inputs = {}) {
  try {
    (void)run_all(text, inputs);
    ADD_FAILURE() << "no error from:\n" << text;
  } catch (const Error& e) {
    return e;
  }
  return Error(ErrorKind::Usage, "<no error raised>");
}

void expect_error(const Error& e, ErrorKind kind, int line, int col,
                  const std::vector<std::string>& parts) {
  EXPECT_EQ(error_kind_name(e.kind()), error_kind_name(kind)) << e.what();
  EXPECT_EQ(e.loc().line, line) << e.what();
  EXPECT_EQ(e.loc().col, col) << e.what();
  if (line > 0) {
    const std::string where =
        "test.strata:" + std::to_string(line) + ":" + std::to_string(col) + ": error: ";
    EXPECT_EQ(std::string(e.what()).rfind(where, 0), 0u) << e.what();
  }
  for (const std::string& part : parts)
    EXPECT_NE(e.message().find(part), std::string::npos) << "`" << part << "` not in: " << e.what();
}

#define XS "(program ((xs (array i64 1)))\n"
#define M "(program ((m (array i64 2)))\n"
#define NONE "(program ()\n"

const Array kXs = array_of<I>({1, 2, 3});
const Array kM = array_of<I>({1, 2, 3, 4, 5, 6}, {2, 3});

TEST(RuntimeErrBounds, ReadOutOfBoundsNamesOpIndexAndShape) {
  const char* body = "  (generate (ix 1) (lambda ((i (ix 1)))\n    (! xs (ix ";
  expect_error(failure(std::string(XS) + body + "5)))))", {kXs}), ErrorKind::Bounds, 3, 5,
               {"`!`", "(5)", "(3)", "out of bounds"});
  expect_error(failure(std::string(XS) + body + "-1)))))", {kXs}), ErrorKind::Bounds, 3, 5,
               {"`!`", "(-1)", "(3)"});
  expect_error(failure(M "  (unit\n    (! m (ix 1 3))))", {kM}), ErrorKind::Bounds, 3, 5,
               {"`!`", "(1,3)", "(2,3)"});
}

TEST(RuntimeErrBounds, LinearReadOutOfBounds) {
  expect_error(failure(XS "  (unit\n    (!! xs 3)))", {kXs}), ErrorKind::Bounds, 3, 5,
               {"`!!`", "3", "(3)"});
  expect_error(failure(M "  (unit\n    (!! m -1)))", {kM}), ErrorKind::Bounds, 3, 5,
               {"`!!`", "-1", "(2,3)"});
}

TEST(RuntimeErrBounds, BackpermuteSourceOutOfBounds) {
  // Result element 1 reads source (3) of shape (3).
  expect_error(failure(XS
                       "  (map (lambda ((x i64)) x)\n"
                       "    (backpermute (ix 2) (lambda ((i (ix 1))) (ix (+ (proj 0 i) 2))) xs)))",
                       {kXs}),
               ErrorKind::Bounds, 3, 5, {"`backpermute`", "(3)"});
}

TEST(RuntimeErrBounds, PermuteTargetOutOfBounds) {
  const std::string comb = "(lambda ((a i64) (b i64)) (+ a b))";
  expect_error(failure(XS "  (map (lambda ((x i64)) x)\n    (permute " + comb +
                           " (fill (ix 3) 0) (lambda ((i (ix 1))) (ix 5)) xs)))",
                       {kXs}),
               ErrorKind::Bounds, 3, 5, {"`permute`", "(5)", "(3)"});
  // Only the full (ignore 2) is ignored; (-1, 0) is an out-of-range target.
  expect_error(failure(M "  (map (lambda ((x i64)) x)\n    (permute " + comb +
                           " (fill (ix 2 3) 0) (lambda ((i (ix 2))) (ix -1 0)) m)))",
                       {kM}),
               ErrorKind::Bounds, 3, 5, {"`permute`", "(-1,0)", "(2,3)"});
}

TEST(RuntimeErrBounds, SliceIndexOutOfBounds) {
  // The dimension's extent, not the whole shape: what a fused check knows.
  expect_error(failure(M "  (map (lambda ((x i64)) x)\n    (slice m (spec 2 all))))", {kM}),
               ErrorKind::Bounds, 3, 5, {"`slice`", "index 2", "dimension 0 (extent 2)"});
  expect_error(failure(M "  (map (lambda ((x i64)) x)\n    (slice m (spec all -1))))", {kM}),
               ErrorKind::Bounds, 3, 5, {"`slice`", "index -1", "dimension 1 (extent 3)"});
}

TEST(RuntimeErrBounds, IndexConversionsOutOfBounds) {
  // docs/language.md, Choices Strata made: the interpreter checks both conversions.
  expect_error(failure(NONE "  (unit\n    (to-index (ix 2 3) (ix 2 0))))"), ErrorKind::Bounds, 3, 5,
               {"to-index", "(2,0)", "(2,3)"});
  expect_error(failure(NONE "  (unit\n    (from-index (ix 2 3) 6)))"), ErrorKind::Bounds, 3, 5,
               {"from-index", "6", "(2,3)"});
}

TEST(RuntimeErrShape, ReshapeSizeMismatchNamesBothShapes) {
  expect_error(failure(XS "  (map (lambda ((x i64)) x)\n    (reshape (ix 4) xs)))", {kXs}),
               ErrorKind::Shape, 3, 5, {"reshape", "(3)", "(4)"});
  expect_error(failure(M "  (map (lambda ((x i64)) x)\n    (reshape (ix 4 2) m)))", {kM}),
               ErrorKind::Shape, 3, 5, {"reshape", "(2,3)", "(4,2)"});
}

TEST(RuntimeErrShape, FoldsegSegmentsMustSumToTheRowLength) {
  const std::string f = "(lambda ((a i64) (b i64)) (+ a b))";
  expect_error(failure(XS "  (map (lambda ((x i64)) x)\n    (foldseg " + f +
                           " 0 xs (use (array i64 (2) 1 1)))))",
                       {kXs}),
               ErrorKind::Shape, 3, 5, {"foldseg", "2", "3"});
  expect_error(failure(XS "  (map (lambda ((x i64)) x)\n    (foldseg " + f +
                           " 0 xs (use (array i64 (2) 4 -1)))))",
                       {kXs}),
               ErrorKind::Shape, 3, 5, {"foldseg", "negative"});
  // A sum that overflows can never match the row: MAX + 2 wraps, and 1 more
  // segment would otherwise bring a wrapped sum back to the extent 3.
  expect_error(failure(XS "  (map (lambda ((x i64)) x)\n    (foldseg " + f +
                           " 0 xs (use (array i64 (3) 9223372036854775807 9223372036854775807 "
                           "4)))))",
                       {kXs}),
               ErrorKind::Shape, 3, 5, {"foldseg", "sum to -1"});
}

TEST(RuntimeErrShape, FoldsegStartsAreRunningSums) {
  const int64_t lengths[] = {2, 0, 3, 1};
  EXPECT_EQ(foldseg_segment_starts(lengths, 4, {5, 6}, SrcLoc{}),
            (std::vector<int64_t>{0, 2, 2, 5}));
  EXPECT_THROW(foldseg_segment_starts(lengths, 4, {5, 7}, SrcLoc{}), Error);
}

TEST(RuntimeErrShape, NegativeExtents) {
  // At the operation whose shape it is, as the fused engines' checks say.
  expect_error(failure(NONE "  (generate\n    (ix -1) (lambda ((i (ix 1))) 0)))"), ErrorKind::Shape,
               2, 3, {"negative extent", "(-1)", "generate"});
  expect_error(failure(NONE "  (fill\n    (ix 2 -3) 0))"), ErrorKind::Shape, 2, 3,
               {"negative extent", "(2,-3)"});
  expect_error(
      failure(XS
              "  (map (lambda ((x i64)) x)\n    (backpermute (ix -2) (lambda ((i (ix 1))) i) xs)))",
              {kXs}),
      ErrorKind::Shape, 3, 5, {"negative extent", "(-2)", "`backpermute`"});
  expect_error(failure(XS "  (map (lambda ((x i64)) x)\n    (replicate (spec -2 all) xs)))", {kXs}),
               ErrorKind::Shape, 3, 5, {"negative extent", "(-2,3)", "`replicate`"});
}

TEST(RuntimeErrResource, HugeShapesAreErrorsNotCrashes) {
  expect_error(failure(NONE "  (map (lambda ((x i64)) x)\n"
                            "    (generate (ix 4611686018427387904 4) (lambda ((i (ix 2))) 0))))"),
               ErrorKind::Resource, 3, 5, {"generate"});
  // 2^62 elements of 8 bytes: the byte count overflows.
  expect_error(failure(NONE "  (map (lambda ((x i64)) x)\n    (fill (ix 4611686018427387904) 0)))"),
               ErrorKind::Resource, 3, 5, {"fill"});
  expect_error(failure(XS "  (map (lambda ((x i64)) x)\n"
                          "    (replicate (spec 4611686018427387904 4611686018427387904 all) xs)))",
                       {kXs}),
               ErrorKind::Resource, 3, 5, {"replicate"});
  // A zero extent makes the product 0 whatever the others are.
  Array empty = run1("(program () (fill (ix 4611686018427387904 0 4611686018427387904) 0))");
  EXPECT_EQ(empty.size(), 0);
}

TEST(RuntimeErrEmptyReduction, Fold1OverEmptyRows) {
  const std::string f = "(lambda ((a i64) (b i64)) (+ a b))";
  expect_error(
      failure(NONE "  (map (lambda ((x i64)) x)\n    (fold1 " + f + " (fill (ix 3 0) 1))))"),
      ErrorKind::EmptyReduction, 3, 5, {"fold1", "(3,0)"});
  expect_error(
      failure(XS "  (map (lambda ((x i64)) x)\n    (fold1 " + f + " xs)))", {array_of<I>({})}),
      ErrorKind::EmptyReduction, 3, 5, {"fold1"});
  // The interpreter only fails when there is a row to reduce: shape (0,0) has no rows,
  // so fold1 gives an empty (0) result (and likewise (0,3)).
  Array r = run1("(program () (fold1 " + f + " (fill (ix 0 0) 1)))");
  EXPECT_EQ(r.shape(), (Shape{0}));
  Array r2 = run1("(program () (fold1 " + f + " (fill (ix 0 3) 1)))");
  EXPECT_EQ(r2.shape(), (Shape{0}));
}

TEST(RuntimeErrDivision, InsideACollectiveWithItsPosition) {
  expect_error(
      failure("(program ((ys (array i32 1)))\n  (map (lambda ((y i32))\n    (quot 100i32 y)) ys))",
              {array_of<int32_t>({5, 0})}),
      ErrorKind::DivisionByZero, 3, 5, {"division by zero", "`quot`", "100", "0"});
  expect_error(failure(NONE "  (unit\n    (mod 1u8 0u8)))"), ErrorKind::DivisionByZero, 3, 5,
               {"division by zero", "`mod`"});
}

TEST(RuntimeErrInput, WrongNumberOfInputs) {
  const std::string p = "(program ((xs (array i64 1)) (ys (array i64 1))) (atuple xs ys))";
  expect_error(failure(p, {kXs}), ErrorKind::Input, 1, 1, {"takes 2", "given 1"});
  expect_error(failure(p, {kXs, kXs, kXs}), ErrorKind::Input, 1, 1, {"takes 2", "given 3"});
  expect_error(failure(NONE "  (unit 1))", {kXs}), ErrorKind::Input, 1, 1, {"takes 0", "given 1"});
}

TEST(RuntimeErrInput, InputOfTheWrongType) {
  const std::string p =
      "(program ((xs (array i64 1))\n           (ys (array f32 2)))\n  (atuple xs ys))";
  const Array ys = array_of<float>({1, 2}, {1, 2});
  // Element type differs: the parameter `(ys (array f32 2))` is at 2:12.
  expect_error(failure(p, {kXs, array_of<double>({1, 2}, {1, 2})}), ErrorKind::Input, 2, 12,
               {"`ys`", "(array f32 2)", "(array f64 2)"});
  // Rank differs.
  expect_error(failure(p, {kXs, array_of<float>({1, 2})}), ErrorKind::Input, 2, 12,
               {"`ys`", "(array f32 2)", "(array f32 1)"});
  expect_error(failure(p, {kM, ys}), ErrorKind::Input, 1, 11,
               {"`xs`", "(array i64 1)", "(array i64 2)"});
  // The right inputs run.
  EXPECT_EQ(run_all(p, {kXs, ys}).size(), 2u);
}

} // namespace
} // namespace strata
