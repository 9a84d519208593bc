// The interpreter under a declared association order (core/reduction_order.h):
// small orders whose trees are computed by hand with a non-associative
// combiner (-), so that any other tree gives another number.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tests/test_util.h"

namespace strata {
namespace {

using namespace strata::test;
using I = int64_t;

// fold chunked from 4 elements in chunks of 4, scans from 6 in chunks of 3;
// 16 bytes of lanes: two i64 lanes, four i32 lanes. The tests below show
// the strided tree with (- a b), whose operand order it makes visible; a
// legal order gives such a function one lane (docs/language.md "Legal
// orders"), so they run the illegal striding of every function, which the
// interpreter replays as any order (OneLaneForAFunctionThatDoesNotCommute
// below runs the legal one).
ReductionOrder small_order() {
  ReductionOrder o;
  o.striding = Striding::every_function;
  o.fold_chunked_from = 4;
  o.fold_chunk = 4;
  o.scan_chunked_from = 6;
  o.scan_chunk = 3;
  o.lane_bytes = 16;
  return o;
}

std::vector<I> iota(I n) {
  std::vector<I> v;
  for (I i = 0; i < n; ++i)
    v.push_back(i);
  return v;
}

std::vector<Array> run_in(const ReductionOrder& order, const std::string& text,
                          const std::vector<Array>& inputs) {
  InterpreterOptions options;
  options.order = order;
  return interpret(parse_and_check(text), inputs, options);
}

const char* kFoldMinus = "(program ((xs (array i64 1))) "
                         "(fold (lambda ((a i64) (b i64)) (- a b)) 100 xs))";
const char* kFold1Minus = "(program ((xs (array i64 1))) "
                          "(fold1 (lambda ((a i64) (b i64)) (- a b)) xs))";

TEST(ReductionOrder, LanesArePowersOfTwoFillingTheLaneBytes) {
  ReductionOrder b = ReductionOrder::blocked();
  EXPECT_EQ(fold_lanes(b, Type::scalar(ScalarKind::F32)), 32);
  EXPECT_EQ(fold_lanes(b, Type::scalar(ScalarKind::F64)), 16);
  EXPECT_EQ(fold_lanes(b, Type::scalar(ScalarKind::I8)), 128);
  EXPECT_EQ(fold_lanes(b, Type::scalar(ScalarKind::Bool)), 128);
  Type f32 = Type::scalar(ScalarKind::F32), i64 = Type::scalar(ScalarKind::I64),
       f64 = Type::scalar(ScalarKind::F64);
  EXPECT_EQ(fold_lanes(b, Type::tuple({f32, f32})), 16);
  EXPECT_EQ(fold_lanes(b, Type::tuple({i64, f64, f64})), 4); // 24 bytes: 5 -> 4
  EXPECT_EQ(fold_lanes(b, Type::tuple({})), 1);
  EXPECT_EQ(ReductionOrder::canonical().describe(), "canonical");
  EXPECT_NE(b.describe().find("16384"), std::string::npos);
}

TEST(ReductionOrder, CanonicalFoldIsLeftToRight) {
  // 100 - 0 - 1 - ... - 8 = 64
  Array r = run_in(ReductionOrder::canonical(), kFoldMinus, {array_of<I>(iota(9))})[0];
  EXPECT_EQ(values_of<I>(r), std::vector<I>{64});
}

TEST(ReductionOrder, BlockedFoldRunsTheDeclaredTree) {
  // chunks [0 1 2 3] [4 5 6 7] [8]; two lanes per chunk:
  //   chunk 0: lane0 = 0 - 2 = -2, lane1 = 1 - 3 = -2, halves: -2 - -2 = 0
  //   chunk 1: lane0 = 4 - 6 = -2, lane1 = 5 - 7 = -2 -> 0;  chunk 2: 8
  //   row: ((100 - 0) - 0) - 8 = 92; fold1: (0 - 0) - 8 = -8
  Array r = run_in(small_order(), kFoldMinus, {array_of<I>(iota(9))})[0];
  EXPECT_EQ(values_of<I>(r), std::vector<I>{92});
  Array r1 = run_in(small_order(), kFold1Minus, {array_of<I>(iota(9))})[0];
  EXPECT_EQ(values_of<I>(r1), std::vector<I>{-8});
  // Below fold_chunked_from: left to right, 100 - 0 - 1 - 2 = 97.
  Array s = run_in(small_order(), kFoldMinus, {array_of<I>(iota(3))})[0];
  EXPECT_EQ(values_of<I>(s), std::vector<I>{97});
}

TEST(ReductionOrder, OneLaneForAFunctionThatDoesNotCommute) {
  // The legal striding: chunks [0 1 2 3] [4 5 6 7] [8], each in one lane:
  //   chunk 0: ((0 - 1) - 2) - 3 = -6; chunk 1: ((4 - 5) - 6) - 7 = -14; chunk 2: 8
  //   row: ((100 - -6) - -14) - 8 = 112; fold1: (-6 - -14) - 8 = 0
  ReductionOrder legal = small_order();
  legal.striding = Striding::commutative;
  Array r = run_in(legal, kFoldMinus, {array_of<I>(iota(9))})[0];
  EXPECT_EQ(values_of<I>(r), std::vector<I>{112});
  Array r1 = run_in(legal, kFold1Minus, {array_of<I>(iota(9))})[0];
  EXPECT_EQ(values_of<I>(r1), std::vector<I>{0});
}

TEST(ReductionOrder, OddLaneCountsWaitALevel) {
  // i32: four lanes; a chunk of 4 from the order above, but a 7-element row
  // (chunks [0..3] [4 5 6]): chunk 1 has 3 used lanes 4, 5, 6:
  //   count 3: half 1, rest 2: lane0 = 4 - 6 = -2; count 2: -2 - 5 = -7.
  //   chunk 0: lanes 0 1 2 3 -> (0 - 2) = -2, (1 - 3) = -2 -> -2 - -2 = 0.
  //   fold1: 0 - -7 = 7.
  const char* text = "(program ((xs (array i32 1))) "
                     "(fold1 (lambda ((a i32) (b i32)) (- a b)) xs))";
  std::vector<int32_t> xs{0, 1, 2, 3, 4, 5, 6};
  Array r = run_in(small_order(), text, {array_of<int32_t>(xs)})[0];
  EXPECT_EQ(values_of<int32_t>(r), std::vector<int32_t>{7});
}

TEST(ReductionOrder, BlockedScanlCarriesChunkTotals) {
  // scanl (-) 100 over 0..6 (7 >= 6: chunks of 3: [0 1 2] [3 4 5] [6]).
  // totals (two i64 lanes): chunk 0: lane0 = 0 - 2 = -2, lane1 = 1 -> -2 - 1 = -3
  //                         chunk 1: lane0 = 3 - 5 = -2, lane1 = 4 -> -6
  // carries: 100, 100 - -3 = 103, 103 - -6 = 109
  // chunk 0 from 100: 100 99 97; chunk 1 from 103: 100 96 91; chunk 2 from 109: 103
  const char* text = "(program ((xs (array i64 1))) "
                     "(scanl (lambda ((a i64) (b i64)) (- a b)) 100 xs))";
  Array r = run_in(small_order(), text, {array_of<I>(iota(7))})[0];
  EXPECT_EQ(values_of<I>(r), (std::vector<I>{100, 100, 99, 97, 100, 96, 91, 103}));
  Array c = run_in(ReductionOrder::canonical(), text, {array_of<I>(iota(7))})[0];
  EXPECT_EQ(values_of<I>(c), (std::vector<I>{100, 100, 99, 97, 94, 90, 85, 79}));
}

TEST(ReductionOrder, BlockedScanrReadsBackwardsWithSwappedOperands) {
  // scanr1 (-) over 0..6: scan order reads 6 5 4 3 2 1 0 and combines
  // g(acc, x) = x - acc. Chunks [6 5 4] [3 2 1] [0].
  // totals: chunk 0: lane0 = g(6, 4) = 4 - 6 = -2, lane1 = 5 -> g(-2, 5) = 5 - -2 = 7
  // carries: none, 7
  // chunk 0 (no carry): 6, g(6,5) = -1, g(-1,4) = 5
  // chunk 1 from 7: g(7,3) = -4, g(-4,2) = 6, g(6,1) = -5
  // carry 2 = g(7, total1); total1: lane0 = g(3, 1) = -2, lane1 = 2 -> g(-2, 2) = 4; g(7, 4) = -3
  // chunk 2 from -3: g(-3, 0) = 3
  const char* text = "(program ((xs (array i64 1))) "
                     "(scanr1 (lambda ((a i64) (b i64)) (- a b)) xs))";
  Array r = run_in(small_order(), text, {array_of<I>(iota(7))})[0];
  // element j holds the accumulator after reading it
  EXPECT_EQ(values_of<I>(r), (std::vector<I>{3, -5, 6, -4, 5, -1, 6}));
}

TEST(ReductionOrder, BlockedScanlPrimeTotalIsTheLastAccumulator) {
  const char* text = "(program ((xs (array i64 1))) "
                     "(scanl' (lambda ((a i64) (b i64)) (- a b)) 100 xs))";
  std::vector<Array> r = run_in(small_order(), text, {array_of<I>(iota(7))});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(values_of<I>(r[0]), (std::vector<I>{100, 100, 99, 97, 100, 96, 91}));
  EXPECT_EQ(values_of<I>(r[1]), std::vector<I>{103});
  std::vector<Array> e = run_in(small_order(), text, {array_of<I>({})});
  EXPECT_EQ(e[0].size(), 0);
  EXPECT_EQ(values_of<I>(e[1]), std::vector<I>{100});
}

TEST(ReductionOrder, FloatSumDiffersBetweenOrdersOnlyInRounding) {
  // 2^24 + 1 + 1 + ... : left to right, every 1 is lost in f32; the blocked
  // tree adds the ones together first in most lanes.
  std::vector<float> xs(40000, 1.0f);
  xs[0] = 16777216.0f;
  const char* text = "(program ((xs (array f32 1))) "
                     "(fold (lambda ((a f32) (b f32)) (+ a b)) 0f32 xs))";
  Array canon = run_in(ReductionOrder::canonical(), text, {array_of<float>(xs)})[0];
  Array blocked = run_in(ReductionOrder::blocked(), text, {array_of<float>(xs)})[0];
  EXPECT_EQ(values_of<float>(canon)[0], 16777216.0f);
  EXPECT_GT(values_of<float>(blocked)[0], 16777216.0f + 39000.0f);
}

} // namespace
} // namespace strata
