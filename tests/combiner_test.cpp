// core/combiner.h: which lambdas are binary or componentwise combiners, and
// which combiners reorder exactly (bitwise) or as numbers. The tables are
// written by hand from the IEEE and two's-complement rules.
#include <gtest/gtest.h>

#include "core/combiner.h"
#include "core/parser.h"

namespace strata {
namespace {

// `(lambda ((name kind) ...) body)`; binary_combiner reads names and types only.
Lambda lambda(const std::vector<std::pair<std::string, ScalarKind>>& params,
              const std::string& body) {
  Lambda f;
  for (const auto& [name, kind] : params)
    f.params.push_back(Param{name, Type::scalar(kind), {}});
  f.body = parse_exp(body);
  return f;
}

constexpr ScalarKind I32 = ScalarKind::I32, I64 = ScalarKind::I64, F64 = ScalarKind::F64;

TEST(Combiner, BinaryCombinersEitherOperandFirst) {
  auto c = binary_combiner(lambda({{"a", I32}, {"b", I32}}, "(+ a b)"));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->op, Prim::Add);
  EXPECT_EQ(c->kind, ScalarKind::I32);
  c = binary_combiner(lambda({{"a", F64}, {"b", F64}}, "(min b a)"));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->op, Prim::Min);
  EXPECT_EQ(c->kind, ScalarKind::F64);
}

TEST(Combiner, OtherLambdasAreNotBinaryCombiners) {
  EXPECT_FALSE(binary_combiner(lambda({{"a", I32}, {"b", I32}}, "(+ a a)"))); // one operand twice
  EXPECT_FALSE(binary_combiner(lambda({{"a", I32}, {"b", I32}}, "(+ a 1i32)")));       // a constant
  EXPECT_FALSE(binary_combiner(lambda({{"a", I32}, {"b", I32}}, "(+ (+ a b) 0i32)"))); // nested
  EXPECT_FALSE(binary_combiner(lambda({{"a", I32}, {"b", I32}}, "b")));       // no operation
  EXPECT_FALSE(binary_combiner(lambda({{"a", I32}, {"a", I32}}, "(+ a a)"))); // one name
  EXPECT_FALSE(binary_combiner(lambda({{"a", I32}, {"b", I64}}, "(+ a b)"))); // two types
  EXPECT_FALSE(binary_combiner(lambda({{"a", I32}}, "(neg a)")));             // one parameter
}

TEST(Combiner, IntegerOperationsReorderExactly) {
  for (ScalarKind k :
       {ScalarKind::I8, ScalarKind::I32, ScalarKind::I64, ScalarKind::U8, ScalarKind::U64})
    for (Prim op :
         {Prim::Add, Prim::Mul, Prim::Min, Prim::Max, Prim::BAnd, Prim::BOr, Prim::BXor}) {
      EXPECT_TRUE(reorders_exactly(op, k)) << prim_name(op);
      EXPECT_TRUE(order_free(op, k)) << prim_name(op);
    }
  // Not associative, or not commutative.
  for (Prim op : {Prim::Sub, Prim::Quot, Prim::Rem, Prim::Shl})
    EXPECT_FALSE(reorders_exactly(op, ScalarKind::I32)) << prim_name(op);
}

TEST(Combiner, FloatsReorderOnlyMinAndMaxAndOnlyAsNumbers) {
  for (ScalarKind k : {ScalarKind::F32, ScalarKind::F64}) {
    // (a + b) + c != a + (b + c) in general; min(-0.0, 0.0) depends on order.
    for (Prim op : {Prim::Add, Prim::Mul, Prim::Min, Prim::Max})
      EXPECT_FALSE(reorders_exactly(op, k)) << prim_name(op);
    EXPECT_TRUE(order_free(Prim::Min, k));
    EXPECT_TRUE(order_free(Prim::Max, k));
    EXPECT_FALSE(order_free(Prim::Add, k));
    EXPECT_FALSE(order_free(Prim::Mul, k));
  }
}

TEST(Combiner, BoolAndOrReorderExactly) {
  EXPECT_TRUE(reorders_exactly(Prim::And, ScalarKind::Bool));
  EXPECT_TRUE(reorders_exactly(Prim::Or, ScalarKind::Bool));
  EXPECT_FALSE(reorders_exactly(Prim::Add, ScalarKind::Bool));
}

} // namespace
} // namespace strata
