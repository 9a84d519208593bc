#include <gtest/gtest.h>

#include <cmath>

#include "core/scalar.h"
#include "core/types.h"

namespace strata {
namespace {

TEST(Scalar, LiteralsCarryTheirSuffix) {
  EXPECT_EQ(format_literal(Scalar::make<int64_t>(42)), "42");
  EXPECT_EQ(format_literal(Scalar::make<int32_t>(-7)), "-7i32");
  EXPECT_EQ(format_literal(Scalar::make<double>(2.0)), "2.0");
  EXPECT_EQ(format_literal(Scalar::make<float>(1.5f)), "1.5f32");
  EXPECT_EQ(format_literal(Scalar::make<bool>(true)), "true");
  EXPECT_EQ(format_literal(Scalar::make<float>(-INFINITY)), "-inff32");
}

TEST(Types, IndexIsATupleOfI64) {
  EXPECT_EQ(Type::index(2), Type::tuple({Type::scalar(ScalarKind::I64), Type::scalar(ScalarKind::I64)}));
  EXPECT_EQ(Type::index(0), Type::tuple({}));
  EXPECT_EQ(Type::index(2).str(), "(ix 2)");
  EXPECT_EQ(Type::array(Type::scalar(ScalarKind::F32), 2).str(), "(array f32 2)");
  EXPECT_EQ(Type::tuple({Type::scalar(ScalarKind::I32), Type::scalar(ScalarKind::F32)}).leaves().size(), 2u);
}

} // namespace
} // namespace strata
