// The oracle judges the orders it replays (oracle/order_judge.h,
// docs/language.md "Legal orders"): which functions commute, how many lanes
// a chunk of each runs, an order that strides a function that does not
// commute, and a function that is not associative shown by three values.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/combiner.h"
#include "oracle/differential.h"
#include "oracle/order_judge.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {

// The function of the program's only fold or scan.
const Lambda& function_of(const Program& p) {
  if (const auto* f = std::get_if<ac::Fold>(&p.body->node)) return f->f;
  return std::get<ac::Scan>(p.body->node).f;
}

Program fold_of(const std::string& elem, const std::string& f) {
  return parse_and_check("(program ((xs (array " + elem + " 1))) (fold1 " + f + " xs))");
}

TEST(OrderJudge, TheClosedListOfFunctionsThatCommute) {
  auto commute = [](const std::string& elem, const std::string& f) {
    return commutes(function_of(fold_of(elem, f)));
  };
  EXPECT_TRUE(commute("i32", "+"));
  EXPECT_TRUE(commute("u8", "(lambda ((a u8) (b u8)) (bxor b a))"));
  EXPECT_TRUE(commute("bool", "or"));
  EXPECT_TRUE(commute("f32", "+"));
  EXPECT_TRUE(commute("f64", "*"));
  EXPECT_TRUE(commute("(tuple i64 f32)",
                      "(lambda ((a (tuple i64 f32)) (b (tuple i64 f32))) "
                      "(tuple (max (proj 0 a) (proj 0 b)) (+ (proj 1 b) (proj 1 a))))"));
  // Ties return the first operand: (min -0.0 0.0) is -0.0, (min 0.0 -0.0) 0.0.
  EXPECT_FALSE(commute("f32", "min"));
  EXPECT_FALSE(commute("f64", "max"));
  EXPECT_FALSE(commute("i64", "(lambda ((a i64) (b i64)) (if (== b 0) a b))"));
  EXPECT_FALSE(commute("i64", "(lambda ((a i64) (b i64)) (- a b))"));
  EXPECT_FALSE(commute("(tuple i64 f32)",
                       "(lambda ((a (tuple i64 f32)) (b (tuple i64 f32))) "
                       "(tuple (+ (proj 0 a) (proj 0 b)) (min (proj 1 a) (proj 1 b))))"));
}

TEST(OrderJudge, AChunkOfAFunctionThatDoesNotCommuteRunsInOneLane) {
  ReductionOrder blocked = ReductionOrder::blocked();
  Type i64 = Type::scalar(ScalarKind::I64);
  Program plus_fold = fold_of("i64", "+");
  Program fill_fold = fold_of("i64", "(lambda ((a i64) (b i64)) (if (== b 0) a b))");
  const Lambda& plus = function_of(plus_fold);
  const Lambda& fill = function_of(fill_fold);
  EXPECT_EQ(chunk_lanes(blocked, i64, plus), 16);
  EXPECT_EQ(chunk_lanes(blocked, i64, fill), 1);
  ReductionOrder strided = blocked;
  strided.striding = Striding::every_function;
  EXPECT_EQ(chunk_lanes(strided, i64, fill), 16);
}

TEST(OrderJudge, TheStridingIsPartOfTheOrdersText) {
  ReductionOrder strided = ReductionOrder::small();
  strided.striding = Striding::every_function;
  EXPECT_EQ(strided.spec(), "3,4,3,3,16,strided-all");
  EXPECT_EQ(ReductionOrder::parse(strided.spec(), "test"), strided);
  EXPECT_EQ(ReductionOrder::parse("3,4,3,3,16", "test"), ReductionOrder::small());
  EXPECT_NE(strided.describe().find("strided for every function"), std::string::npos);
  EXPECT_THROW(ReductionOrder::parse("3,4,3,3,16,strided", "test"), Error);
}

TEST(OrderJudge, StridedLanesForAFunctionThatDoesNotCommuteAreRefused) {
  Program fill = parse_and_check("(program ((xs (array i64 1)))\n"
                                 "  (scanl1 (lambda ((a i64) (b i64)) (if (== b 0) a b)) xs))");
  Program plus = fold_of("i64", "+");
  ReductionOrder strided = ReductionOrder::small();
  strided.striding = Striding::every_function;
  EXPECT_EQ(illegal_grouping(fill, ReductionOrder::small()), std::nullopt);
  EXPECT_EQ(illegal_grouping(plus, strided), std::nullopt);
  std::optional<std::string> why = illegal_grouping(fill, strided);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("`scanl1` at test.strata:2:3"), std::string::npos) << *why;
  EXPECT_NE(why->find("does not provably commute"), std::string::npos) << *why;

  // compare_with_oracle judges before it compares: the replay agrees.
  std::vector<Array> inputs{array_of<int64_t>({0, 2, 1, 0, 0, 3, 0})};
  OracleReplays oracles(fill, inputs);
  Outcome engine = oracles.in(strided);
  EXPECT_EQ(compare_with_oracle(fill, inputs, oracles, engine), why);
}

TEST(OrderJudge, AFunctionThatIsNotAssociativeIsShownByThreeValues) {
  Program minus = parse_and_check(
      "(program ((xs (array i64 1)))\n  (fold (lambda ((a i64) (b i64)) (- a b)) 0 xs))");
  std::vector<Array> inputs{array_of<int64_t>({1, 2, 3, 4, 5, 6, 7, 8, 9})};
  EXPECT_TRUE(judged_against_canonical(minus, ReductionOrder::small()));
  EXPECT_FALSE(judged_against_canonical(minus, ReductionOrder::canonical()));
  EXPECT_FALSE(judged_against_canonical(fold_of("f32", "+"), ReductionOrder::small()));

  // An engine bitwise the replay of a legal order: the order is legal, the
  // results differ from the canonical ones, so the function is reported.
  OracleReplays oracles(minus, inputs);
  Outcome engine = oracles.in(ReductionOrder::small());
  std::optional<std::string> why = compare_with_oracle(minus, inputs, oracles, engine);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("the function of `fold` at test.strata:2:3 is not associative: "
                      "f(f(a, b), c) = "),
            std::string::npos)
      << *why;
  EXPECT_EQ(why->find('\n'), std::string::npos) << "one line";
  // The three values it names do show it.
  EXPECT_NE(why->find(" for a = "), std::string::npos);

  // The associative forward fill in the same order is not reported.
  Program fill = parse_and_check(
      "(program ((xs (array i64 1))) (fold (lambda ((a i64) (b i64)) (if (== b 0) a b)) 0 xs))");
  OracleReplays fill_oracles(fill, inputs);
  Outcome fill_engine = fill_oracles.in(ReductionOrder::small());
  EXPECT_EQ(compare_with_oracle(fill, inputs, fill_oracles, fill_engine), std::nullopt);
}

} // namespace
} // namespace strata::test
