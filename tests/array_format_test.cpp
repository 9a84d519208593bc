// Golden tests of NumPy-style array printing and the one-line summary.
#include <gtest/gtest.h>

#include <cmath>

#include "core/array_format.h"

namespace strata {
namespace {

Type scalar_type(ScalarKind k) {
  return Type::scalar(k);
}

template <class T> Array arange(const Shape& shape) {
  Array a = Array::allocate(scalar_type(kind_of<T>), shape);
  for (int64_t i = 0; i < a.size(); ++i)
    a.write(0, i, Scalar::make<T>(T(i)));
  return a;
}

template <class T> Array vec(std::initializer_list<T> vals) {
  Array a = Array::allocate(scalar_type(kind_of<T>), {int64_t(vals.size())});
  int64_t i = 0;
  for (T v : vals)
    a.write(0, i++, Scalar::make<T>(v));
  return a;
}

TEST(ArrayFormat, RankZeroPrintsTheScalar) {
  Array a = Array::allocate(scalar_type(ScalarKind::I32), {});
  a.write(0, 0, Scalar::make<int32_t>(42));
  EXPECT_EQ(format_array(a), "42");
  Array f = Array::allocate(scalar_type(ScalarKind::F32), {});
  f.write(0, 0, Scalar::make<float>(1.5f));
  EXPECT_EQ(format_array(f), "1.5");
}

TEST(ArrayFormat, RankOne) {
  EXPECT_EQ(format_array(vec<int32_t>({1, 2, 3})), "[1, 2, 3]");
  EXPECT_EQ(format_array(vec<int64_t>({1, -10, 100})), "[  1, -10, 100]");
  EXPECT_EQ(format_array(vec<uint8_t>({255, 0})), "[255,   0]");
  EXPECT_EQ(format_array(vec<int32_t>({7})), "[7]");
}

TEST(ArrayFormat, RankTwoPutsRowsOnSeparateLines) {
  EXPECT_EQ(format_array(arange<int32_t>({2, 3})), "[[0, 1, 2],\n"
                                                   " [3, 4, 5]]");
  EXPECT_EQ(format_array(arange<int32_t>({3, 4})), "[[ 0,  1,  2,  3],\n"
                                                   " [ 4,  5,  6,  7],\n"
                                                   " [ 8,  9, 10, 11]]");
}

TEST(ArrayFormat, HigherRanksSeparateBlocksWithBlankLines) {
  EXPECT_EQ(format_array(arange<int16_t>({2, 2, 2})), "[[[0, 1],\n"
                                                      "  [2, 3]],\n"
                                                      "\n"
                                                      " [[4, 5],\n"
                                                      "  [6, 7]]]");
  EXPECT_EQ(format_array(arange<int16_t>({2, 1, 1, 2})), "[[[[0, 1]]],\n"
                                                         "\n"
                                                         "\n"
                                                         " [[[2, 3]]]]");
}

TEST(ArrayFormat, EmptyArrays) {
  EXPECT_EQ(format_array(arange<int32_t>({0})), "[]");
  EXPECT_EQ(format_array(arange<int32_t>({2, 0})), "[]");
}

TEST(ArrayFormat, SummarisesLongVectors) {
  EXPECT_EQ(format_array(arange<int64_t>({2000})), "[   0,    1,    2, ..., 1997, 1998, 1999]");
  EXPECT_EQ(format_array(arange<int64_t>({1000})).find("..."), std::string::npos);
  EXPECT_EQ(format_array(arange<int64_t>({20}), 10, 2), "[ 0,  1, ..., 18, 19]");
}

TEST(ArrayFormat, SummarisesEveryDimension) {
  EXPECT_EQ(format_array(arange<int32_t>({100, 100})),
            "[[   0,    1,    2, ...,   97,   98,   99],\n"
            " [ 100,  101,  102, ...,  197,  198,  199],\n"
            " [ 200,  201,  202, ...,  297,  298,  299],\n"
            " ...,\n"
            " [9700, 9701, 9702, ..., 9797, 9798, 9799],\n"
            " [9800, 9801, 9802, ..., 9897, 9898, 9899],\n"
            " [9900, 9901, 9902, ..., 9997, 9998, 9999]]");
  EXPECT_EQ(format_array(arange<int32_t>({3, 3, 3}), 10, 1), "[[[ 0, ...,  2],\n"
                                                             "  ...,\n"
                                                             "  [ 6, ...,  8]],\n"
                                                             "\n"
                                                             " ...,\n"
                                                             "\n"
                                                             " [[18, ..., 20],\n"
                                                             "  ...,\n"
                                                             "  [24, ..., 26]]]");
  // Short dimensions are shown whole even when the array is summarised.
  EXPECT_EQ(format_array(arange<int32_t>({2, 10}), 5, 2), "[[ 0,  1, ...,  8,  9],\n"
                                                          " [10, 11, ..., 18, 19]]");
}

TEST(ArrayFormat, Tuples) {
  Type elem = Type::tuple({scalar_type(ScalarKind::I32), scalar_type(ScalarKind::F64)});
  Array a = Array::allocate(elem, {2});
  a.write(0, 0, Scalar::make<int32_t>(1));
  a.write(1, 0, Scalar::make<double>(0.5));
  a.write(0, 1, Scalar::make<int32_t>(20));
  a.write(1, 1, Scalar::make<double>(1.25));
  EXPECT_EQ(format_array(a), "[( 1,  0.5), (20, 1.25)]");

  Array s = Array::allocate(elem, {});
  s.write(0, 0, Scalar::make<int32_t>(1));
  s.write(1, 0, Scalar::make<double>(0.5));
  EXPECT_EQ(format_array(s), "(1, 0.5)");

  Type nested =
      Type::tuple({scalar_type(ScalarKind::Bool),
                   Type::tuple({scalar_type(ScalarKind::U8), scalar_type(ScalarKind::I8)})});
  Array n = Array::allocate(nested, {1, 2});
  n.write(0, 1, Scalar::make<bool>(true));
  n.write(2, 1, Scalar::make<int8_t>(-3));
  EXPECT_EQ(format_array(n), "[[(false, (0,  0)), ( true, (0, -3))]]");

  Array one = Array::allocate(Type::tuple({scalar_type(ScalarKind::I64)}), {});
  one.write(0, 0, Scalar::make<int64_t>(5));
  EXPECT_EQ(format_array(one), "(5,)");
}

TEST(ArrayFormat, FloatsUseShortestRoundTrip) {
  EXPECT_EQ(format_array(vec<float>({0.1f, NAN, INFINITY, -INFINITY})), "[ 0.1,  nan,  inf, -inf]");
  EXPECT_EQ(format_array(vec<double>({2.0, 0.1, 1e20, -0.0})), "[    2,   0.1, 1e+20,    -0]");
  EXPECT_EQ(format_array(vec<double>({1.0 / 3})), "[0.3333333333333333]");
}

TEST(ArrayFormat, Bools) {
  EXPECT_EQ(format_array(vec<bool>({true, false})), "[ true, false]");
}

TEST(ArrayFormat, DescribeGivesTypeShapeAndFloatStatistics) {
  Array f = Array::allocate(scalar_type(ScalarKind::F32), {3, 4});
  f.write(0, 0, Scalar::make<float>(-1.5f));
  f.write(0, 5, Scalar::make<float>(2.0f));
  f.write(0, 7, Scalar::make<float>(NAN));
  EXPECT_EQ(describe_array(f), "(array f32 2) shape (3,4) min -1.5 max 2 nans 1");
  EXPECT_EQ(describe_array(arange<int32_t>({3})), "(array i32 1) shape (3)");
  EXPECT_EQ(describe_array(arange<double>({0})), "(array f64 1) shape (0) nans 0");

  Array t = Array::allocate(
      Type::tuple({scalar_type(ScalarKind::I32), scalar_type(ScalarKind::F64)}), {2});
  t.write(1, 0, Scalar::make<double>(0.5));
  t.write(1, 1, Scalar::make<double>(NAN));
  EXPECT_EQ(describe_array(t), "(array (tuple i32 f64) 1) shape (2) [1] min 0.5 max 0.5 nans 1");
}

} // namespace
} // namespace strata
