// Reads in place in the tbb engine: a read of consecutive elements points its
// register into the array instead of copying (Frame::alias); a read at exactly
// the element's index, in a batch within one row, is checked and addressed
// from two lanes, and the index itself is then written only on demand
// (Frame::defer_index); constant operands are read once. Each path is checked
// against the interpreter at sizes around the batch and row boundaries, with
// the errors raised where the interpreter raises them.
#include <gtest/gtest.h>

#include "core/parser.h"
#include "tbb/runtime.h"
#include "tbb/scalar_compiler.h"
#include "tests/tbb_expect.h"

namespace strata::test {
namespace {

using tbbe::kBatch;

std::string str(int64_t n) {
  return std::to_string(n);
}

// 0, 1, ..., n-1 as T, with a repeating pattern that exercises signs.
template <class T> Array ramp(int64_t n, Shape shape = {}) {
  std::vector<T> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    v[size_t(i)] = T((i * 37) % 101) - T(50);
  return array_of<T>(v, shape.empty() ? Shape{n} : shape);
}

const std::vector<int64_t> kSizes = {1, kBatch - 1, kBatch, kBatch + 1, 3 * kBatch + 5};

TEST(TbbDirectReads, MapsZipwithsAndFoldsOverEveryLeafWidthEqualTheInterpreter) {
  for (int64_t n : kSizes) {
    expect_same("(program ((xs (array f32 1)) (ys (array f32 1)))"
                "  (zipwith (lambda ((x f32) (y f32)) (+ (* 2.5f32 x) y)) xs ys))",
                {ramp<float>(n), ramp<float>(n + 3)});
    expect_same("(program ((xs (array i8 1))) (map (lambda ((x i8)) (* x 3i8)) xs))",
                {ramp<int8_t>(n)});
    expect_same("(program ((xs (array f64 1))) (map (lambda ((x f64)) x) xs))", {ramp<double>(n)});
    expect_same("(program ((xs (array i32 1)) (ys (array i32 1)))"
                "  (fold (lambda ((a i32) (b i32)) (+ a b)) 7i32"
                "    (zipwith (lambda ((x i32) (y i32)) (* x y)) xs ys)))",
                {ramp<int32_t>(n), ramp<int32_t>(n)});
    // A fold whose combining function is not recognised: the generic lanes.
    expect_same("(program ((xs (array i16 1)))"
                "  (fold (lambda ((a i16) (b i16)) (- a b)) 0i16 xs))",
                {ramp<int16_t>(n)});
  }
}

TEST(TbbDirectReads, TupleElementsAreReadInPlace) {
  for (int64_t n : kSizes) {
    Array xs = Array::allocate(parse_type("(tuple i32 f64)"), {n});
    for (int64_t i = 0; i < n; ++i) {
      xs.write(0, i, Scalar::make<int32_t>(int32_t(i % 17) - 8));
      xs.write(1, i, Scalar::make<double>(double(i) / 4));
    }
    expect_same("(program ((xs (array (tuple i32 f64) 1))) (map (lambda ((p (tuple i32 f64)))"
                "  (tuple (proj 1 p) (+ (proj 0 p) 1i32))) xs))",
                {xs});
  }
}

TEST(TbbDirectReads, RowsShorterAndLongerThanABatch) {
  // Rows shorter than a batch: batches span rows, so the index is filled and
  // checked lane by lane. Rows longer: one-row runs read in place.
  for (auto [rows, cols] :
       {std::pair<int64_t, int64_t>{40, 50}, {3, kBatch}, {3, 2 * kBatch + 7}}) {
    Array xs = ramp<int32_t>(rows * cols, {rows, cols});
    expect_same("(program ((xs (array i32 2))) (map (lambda ((x i32)) (+ x 1i32)) xs))", {xs});
    expect_same(
        "(program ((xs (array i32 2))) (fold (lambda ((a i32) (b i32)) (max a b)) 0i32 xs))", {xs});
    // The element's own index used besides the read: no deferred index.
    expect_same("(program ((xs (array i32 2))) (generate (shape xs) (lambda ((i (ix 2)))"
                "  (+ (! xs i) (cast i32 (proj 1 i))))))",
                {xs});
    // A stencil: interior runs read the neighbours in place.
    expect_same("(program ((xs (array i32 2))) (stencil (3 3) clamp"
                "  (lambda ((w (window i32 2))) (+ (at w -1 0) (+ (at w 0 1) (at w 1 -1)))) xs))",
                {xs});
  }
}

TEST(TbbDirectReads, AReadPastTheEndRaisesTheInterpretersError) {
  // The generate is longer than xs: the first element past its end is in the
  // middle of a batch; the two-lane check must fail and the lanes run in order.
  for (int64_t n : {kBatch / 2, kBatch + 9, 3 * kBatch - 1}) {
    std::string text = "(program ((xs (array i64 1))) (generate (ix " + str(n + 40) +
                       ") (lambda ((i (ix 1))) (! xs i))))";
    std::string e = tbb_error(text, {ramp<int64_t>(n)});
    EXPECT_NE(e.find("(" + str(n) + ")"), std::string::npos) << e;
  }
}

TEST(TbbDirectReads, ErrorsAfterAReadAtTheIndexNameTheFirstElement) {
  // quot by the element read in place: the first zero is in the third batch;
  // the deferred index must be written before the lanes run one by one.
  int64_t n = 3 * kBatch + 5, zero = 2 * kBatch + 17;
  std::vector<int64_t> v(static_cast<size_t>(n), 3);
  v[size_t(zero)] = 0;
  v[size_t(zero + 100)] = 0;
  std::string e = tbb_error("(program ((xs (array i64 1))) (map (lambda ((x i64)) (quot 1 x)) xs))",
                            {array_of<int64_t>(v, {n})});
  EXPECT_NE(e.find("division by zero"), std::string::npos) << e;
  std::string oracle;
  try {
    interpret(
        parse_and_check("(program ((xs (array i64 1))) (map (lambda ((x i64)) (quot 1 x)) xs))"),
        {array_of<int64_t>(v, {n})});
  } catch (const Error& err) {
    oracle = err.what();
  }
  EXPECT_NE(oracle.find(e.substr(0, e.find(" while"))), std::string::npos)
      << "tbb: " << e << "\ninterp: " << oracle;
}

TEST(TbbDirectReads, ConstantOperandsOnEitherSideAndUnderBranches) {
  for (int64_t n : kSizes) {
    expect_same("(program ((xs (array f32 1))) (map (lambda ((x f32))"
                "  (tuple (- 1.5f32 x) (- x 1.5f32) (< 3f32 x) (>= x 3f32) (+ 1f32 2f32))) xs))",
                {ramp<float>(n)});
    // Sparse selections: each branch runs on some lanes only.
    expect_same("(program ((xs (array i32 1))) (map (lambda ((x i32))"
                "  (if (> x 0i32) (- 10i32 x) (* x 2i32))) xs))",
                {ramp<int32_t>(n)});
    expect_same("(program ((xs (array i32 1))) (map (lambda ((x i32))"
                "  (quot 1000i32 (if (== x 0i32) 1i32 x))) xs))",
                {ramp<int32_t>(n)});
  }
}

// Results written straight into the output (ScalarFunction::result_in_place):
// primitives, casts, if and while results; not literals, indices, reads or a
// register that is two leaves at once.
TEST(TbbDirectReads, ResultsComputedInPlaceOrCopied) {
  for (int64_t n : kSizes) {
    Array xs = ramp<int32_t>(n);
    for (std::string body :
         {"(+ (! xs i) 1i32)", "(cast f64 (! xs i))", "(if (> (! xs i) 0i32) (! xs i) 7i32)",
          "(while (lambda ((v i32)) (< v 100i32)) (lambda ((v i32)) (+ v 13i32)) (! xs i))",
          "(let ((y (* (! xs i) 2i32))) (tuple y y (! xs i) 5i32 i))", "3i32", "(! xs i)"})
      expect_same("(program ((xs (array i32 1))) (generate (shape xs) (lambda ((i (ix 1))) " +
                      body + ")))",
                  {xs});
    expect_same("(program ((xs (array i32 2))) (stencil (1 3) wrap"
                "  (lambda ((w (window i32 2))) (- (at w 0 1) (at w 0 -1))) xs))",
                {ramp<int32_t>(n, {1, n})});
  }
}

// The register of a read at the index points into the array: nothing is
// copied, and the index is written only in its first and last lanes.
TEST(TbbDirectReads, AReadAtTheIndexPointsIntoTheArray) {
  Program p = parse_and_check("(program ((xs (array f32 1)))"
                              "  (generate (shape xs) (lambda ((i (ix 1))) (! xs i))))");
  const auto& g = std::get<ac::Generate>(p.body->node);
  Array xs = ramp<float>(3 * kBatch);
  tbbe::ArrayScope scope{{"xs", {0, p.params[0].type}}};
  tbbe::ArrayTable table{&xs};
  tbbe::ScalarFunction fn = tbbe::compile_function(g.f, scope);
  EXPECT_TRUE(fn.lazy_index());
  EXPECT_FALSE(fn.tail_binary()); // a read is not a fusable tail
  tbbe::Frame frame(fn.registers(), table);
  fn.prepare(frame);
  Shape sh{xs.size()};
  tbbe::run_batch(fn, frame, sh, kBatch, kBatch);
  EXPECT_EQ(frame.reg<float>(fn.result().regs[0]), xs.leaf_data<float>(0) + kBatch);
  EXPECT_FALSE(frame.index_run()); // the marks last for one run only

  // A computed result pointed at the output is written there, not copied.
  Program q = parse_and_check("(program ((xs (array f32 1)))"
                              "  (generate (shape xs) (lambda ((i (ix 1))) (* (! xs i) 2f32))))");
  tbbe::ScalarFunction twice =
      tbbe::compile_function(std::get<ac::Generate>(q.body->node).f, scope);
  ASSERT_EQ(twice.result_in_place(), std::vector<bool>{true});
  EXPECT_FALSE(twice.tail_binary()); // a literal operand: not a fusable tail
  Program dot =
      parse_and_check("(program ((xs (array f32 1)))"
                      "  (generate (shape xs) (lambda ((i (ix 1))) (* (! xs i) (! xs i)))))");
  tbbe::ScalarFunction square =
      tbbe::compile_function(std::get<ac::Generate>(dot.body->node).f, scope);
  ASSERT_TRUE(square.tail_binary());
  EXPECT_EQ(square.tail_binary()->op, Prim::Mul);
  EXPECT_EQ(fn.result_in_place(), std::vector<bool>{false}); // a read: copied
  tbbe::Frame frame2(twice.registers(), table);
  twice.prepare(frame2);
  Array out = Array::allocate(xs.elem_type(), xs.shape());
  tbbe::write_in_place(twice, frame2, out, kBatch);
  tbbe::run_batch(twice, frame2, sh, kBatch, kBatch);
  for (int64_t i = 0; i < kBatch; ++i)
    ASSERT_EQ(out.leaf_data<float>(0)[kBatch + i], 2 * xs.leaf_data<float>(0)[kBatch + i]);
}

} // namespace
} // namespace strata::test
