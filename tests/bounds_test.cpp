// The bounded evaluation (interpreter/bounds.h) and the comparison with it
// (oracle/bounded_compare.h): hand-computed enclosures of single operations,
// the point values are the interpreter's, other legal evaluations lie
// inside, wrong ones outside.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "core/npy.h"
#include "interpreter/bounds.h"
#include "interpreter/sum_bound.h"
#include "oracle/bounded_compare.h"
#include "oracle/generator.h"
#include "tests/test_util.h"

namespace strata {
namespace {

using namespace strata::test;

BScalar f64(double lo, double hi) {
  BScalar s = BScalar::exact(Scalar::make(lo));
  s.hi = hi;
  return s;
}

BScalar op2(Prim op, BScalar a, BScalar b, int ulps = 0) {
  BScalar args[2] = {a, b};
  return bound_prim(op, args, ulps, SrcLoc{});
}
BScalar op1(Prim op, BScalar a, int ulps = 0) {
  return bound_prim(op, &a, ulps, SrcLoc{});
}

TEST(BoundScalar, ArithmeticOnIntervals) {
  BScalar s = op2(Prim::Add, f64(1, 2), f64(3, 4));
  EXPECT_EQ(s.lo, 4);
  EXPECT_EQ(s.hi, 6);
  s = op2(Prim::Sub, f64(1, 2), f64(3, 4));
  EXPECT_EQ(s.lo, -3);
  EXPECT_EQ(s.hi, -1);
  s = op2(Prim::Mul, f64(-1, 2), f64(3, 4));
  EXPECT_EQ(s.lo, -4);
  EXPECT_EQ(s.hi, 8);
  s = op2(Prim::Div, f64(1, 2), f64(4, 8));
  EXPECT_EQ(s.lo, 0.125);
  EXPECT_EQ(s.hi, 0.5);
  EXPECT_EQ(op2(Prim::Div, f64(1, 2), f64(-1, 1)).why, Why::Overflow);
  s = op1(Prim::Abs, f64(-3, 2));
  EXPECT_EQ(s.lo, 0);
  EXPECT_EQ(s.hi, 3);
  s = op1(Prim::Neg, f64(-3, 2));
  EXPECT_EQ(s.lo, -2);
  EXPECT_EQ(s.hi, 3);
  EXPECT_EQ(op1(Prim::Sqrt, f64(-1, 4)).why, Why::NaN);
  s = op1(Prim::Sqrt, f64(4, 9));
  EXPECT_EQ(s.lo, 2);
  EXPECT_EQ(s.hi, 3);
  s = op1(Prim::Floor, f64(-1.5, 2.5));
  EXPECT_EQ(s.lo, -2);
  EXPECT_EQ(s.hi, 2);
  EXPECT_EQ(op2(Prim::Mul, f64(1e300, 1e300), f64(1e10, 1e10)).why, Why::Overflow);
}

TEST(BoundScalar, ComparisonsAndCastsDecideOnlyWhenTheIntervalDoes) {
  BScalar t = op2(Prim::Lt, f64(1, 2), f64(3, 4));
  EXPECT_TRUE(t.determined());
  EXPECT_TRUE(t.point.get<bool>());
  EXPECT_EQ(op2(Prim::Lt, f64(1, 3), f64(2, 4)).why, Why::Undecided);
  EXPECT_TRUE(op2(Prim::Eq, f64(2, 2), f64(2, 2)).determined());
  EXPECT_EQ(op2(Prim::Eq, f64(1, 2), f64(2, 2)).why, Why::Undecided);
  BScalar c = bound_cast(ScalarKind::I32, f64(1.2, 1.7));
  EXPECT_TRUE(c.determined());
  EXPECT_EQ(c.point.get<int32_t>(), 1);
  EXPECT_EQ(bound_cast(ScalarKind::I32, f64(0.5, 1.5)).why, Why::Undecided);
  EXPECT_EQ(bound_cast(ScalarKind::Bool, f64(-0.5, 1.5)).why, Why::Undecided);
  EXPECT_TRUE(bound_cast(ScalarKind::Bool, f64(0.5, 1.5)).determined());
  BScalar f = bound_cast(ScalarKind::F32, f64(0.1, 0.2));
  EXPECT_EQ(f.lo, double(0.1f));
  EXPECT_EQ(f.hi, double(0.2f));
  // An undetermined int stays undetermined through integer arithmetic.
  BScalar i = bound_cast(ScalarKind::I64, f64(0.5, 1.5));
  EXPECT_EQ(op2(Prim::Add, i, BScalar::exact(Scalar::make<int64_t>(1))).why, Why::Undecided);
}

TEST(BoundScalar, TranscendentalsWidenByTheirUlps) {
  // A point with math_ulps 0 is the interpreter's libm exactly.
  BScalar e = op1(Prim::Exp, f64(1, 1));
  EXPECT_EQ(e.lo, std::exp(1.0));
  EXPECT_EQ(e.hi, std::exp(1.0));
  // math_ulps 4: 4 + kLibmUlps + 2 = 8 floats each side.
  e = op1(Prim::Exp, f64(1, 1), 4);
  EXPECT_EQ(e.lo, ulps_down(ScalarKind::F64, std::exp(1.0), 8));
  EXPECT_EQ(e.hi, ulps_up(ScalarKind::F64, std::exp(1.0), 8));
  // sin over [0, 3] reaches its maximum 1 at pi/2; cos over [3, 3.5] its minimum -1.
  BScalar s = op1(Prim::Sin, f64(0, 3));
  EXPECT_EQ(s.hi, ulps_up(ScalarKind::F64, 1.0, 2 * kLibmUlps + 1));
  EXPECT_LE(s.lo, 0);
  BScalar c = op1(Prim::Cos, f64(3, 3.5));
  EXPECT_EQ(c.lo, ulps_down(ScalarKind::F64, -1.0, 2 * kLibmUlps + 1));
  EXPECT_EQ(op1(Prim::Tan, f64(1, 2)).why, Why::Overflow); // pi/2 inside
  EXPECT_EQ(op1(Prim::Log, f64(-1, 2)).why, Why::NaN);
  EXPECT_EQ(op1(Prim::Log, f64(0, 2)).why, Why::Overflow);
  BScalar p = op2(Prim::Pow, f64(-2, 3), f64(2, 2));
  EXPECT_LE(p.lo, 0);
  EXPECT_GE(p.hi, 9);
  EXPECT_EQ(op2(Prim::Pow, f64(-2, 3), f64(0.5, 0.5)).why, Why::Unsupported);
}

// A NaN with no freedom (a literal, IEEE arithmetic on one) is determined:
// min/max drop it, comparisons and casts are decided, arithmetic keeps it;
// a NaN that comes from an interval (sqrt of [-2, -1]) stays undetermined.
TEST(BoundScalar, ExactNaNIsDeterminedWhereIEEESaysSo) {
  BScalar nan = BScalar::exact(Scalar::make(std::numeric_limits<double>::quiet_NaN()));
  EXPECT_TRUE(nan.exact_nan());
  for (Prim op : {Prim::Min, Prim::Max})
    for (bool first : {true, false}) {
      BScalar s = first ? op2(op, nan, f64(1, 2)) : op2(op, f64(1, 2), nan);
      EXPECT_TRUE(s.determined()) << prim_name(op);
      EXPECT_EQ(s.lo, 1);
      EXPECT_EQ(s.hi, 2);
      EXPECT_EQ(s.point.get<double>(), 1);
    }
  EXPECT_TRUE(op2(Prim::Min, nan, nan).exact_nan());
  BScalar lt = op2(Prim::Lt, nan, f64(1, 2));
  EXPECT_TRUE(lt.determined());
  EXPECT_FALSE(lt.point.get<bool>());
  EXPECT_TRUE(op2(Prim::Ne, f64(1, 2), nan).point.get<bool>());
  EXPECT_TRUE(op1(Prim::IsNaN, nan).determined());
  EXPECT_TRUE(op2(Prim::Add, nan, f64(1, 2)).exact_nan());
  EXPECT_TRUE(op2(Prim::Div, f64(1, 2), nan).exact_nan());
  EXPECT_TRUE(op1(Prim::Sqrt, nan).exact_nan());
  EXPECT_EQ(op1(Prim::Exp, nan, 4).why, Why::NaN); // no rule: undetermined
  EXPECT_EQ(op1(Prim::Sqrt, f64(-2, -1)).why, Why::NaN);
  BScalar i = bound_cast(ScalarKind::I32, nan);
  EXPECT_TRUE(i.determined());
  EXPECT_EQ(i.point.get<int32_t>(), 0);
  EXPECT_TRUE(hull(nan, nan).exact_nan());
  EXPECT_EQ(hull(nan, f64(1, 2)).why, Why::NaN);
  SumBound sum;
  sum.add(f64(1, 2));
  sum.add(nan);
  sum.add(f64(3, 4));
  EXPECT_TRUE(sum.enclosure(Scalar::make(std::numeric_limits<double>::quiet_NaN())).exact_nan());
}

// Found on a GPU (docs/cuda.md): device tan is 1 ulp from glibc's, in a
// program that also drops a NaN with min. The element is bounded by tan's
// enclosure, so the device's value passes and a wrong one fails; a NaN that
// every evaluation gives must be found as NaN.
TEST(Bounds, AnExactNaNDroppedByMinLeavesTheOtherOperandsBound) {
  Freedoms device_math;
  device_math.math_ulps = 4;
  Program dropped = parse_and_check(
      "(program ((xs (array f32 1))) (map (lambda ((x f32)) (min nanf32 (tan x))) xs))");
  auto b = bound_program(dropped, {array_of<float>({127.0f})}, device_math);
  ASSERT_TRUE(b[0].leaf(0, 0).determined());
  float t = std::tan(127.0f);
  EXPECT_TRUE(compare_with_bounds(b[0], array_of<float>({std::nextafter(t, 10.0f)})).ok());
  EXPECT_FALSE(compare_with_bounds(b[0], array_of<float>({t * 2})).ok());
  EXPECT_FALSE(compare_with_bounds(b[0], array_of<float>({NAN})).ok());
  Program kept = parse_and_check(
      "(program ((xs (array f32 1))) (map (lambda ((x f32)) (+ nanf32 (tan x))) xs))");
  auto k = bound_program(kept, {array_of<float>({127.0f})}, device_math);
  EXPECT_TRUE(compare_with_bounds(k[0], array_of<float>({NAN})).ok());
  BoundedComparison wrong = compare_with_bounds(k[0], array_of<float>({1.0f}));
  EXPECT_FALSE(wrong.ok());
  ASSERT_EQ(wrong.messages.size(), 1u);
  EXPECT_NE(wrong.messages[0].find("every legal evaluation gives NaN"), std::string::npos)
      << wrong.messages[0];
}

TEST(SumBound, EnclosesEveryOrderAndStaysFiniteForHugeCounts) {
  SumBound s;
  for (double t : {1.0, 2.0, 3.0})
    s.add(BScalar::exact(Scalar::make(t)));
  BScalar r = s.enclosure(Scalar::make(6.0));
  EXPECT_LE(r.lo, 6.0);
  EXPECT_GE(r.hi, 6.0);
  EXPECT_LE(r.hi - r.lo, 6 * 6 * std::numeric_limits<double>::epsilon());
  // f32, 2^22 terms of 1: (1 +- 2^-24)^(2^22 - 1) is about e^(+-1/4); it
  // stays finite past (m-1)u = 1 (2^24 terms: e and 1/e, tests/bounds_check_test.cpp).
  SumBound big;
  for (int i = 0; i < (1 << 22); ++i)
    big.add(BScalar::exact(Scalar::make(1.0f)));
  BScalar b = big.enclosure(Scalar::make(4194304.0f));
  EXPECT_TRUE(b.determined());
  EXPECT_NEAR(b.lo / 4194304.0, std::exp(-0.25), 1e-4);
  EXPECT_NEAR(b.hi / 4194304.0, std::exp(0.25), 1e-4);
  // Near the largest float some order may overflow.
  SumBound huge;
  for (int i = 0; i < 3; ++i)
    huge.add(BScalar::exact(Scalar::make(1e308)));
  EXPECT_EQ(huge.enclosure(Scalar::make(1e308)).why, Why::Overflow);
}

// ------------------------------------------------------------ programs
const char* kSum =
    "(program ((xs (array f64 1))) (fold (lambda ((a f64) (b f64)) (+ a b)) 0.0 xs))";

std::vector<double> random_terms(size_t n, uint64_t seed) {
  std::vector<double> v(n);
  uint64_t x = seed;
  for (double& t : v) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    t = double(x >> 11) * 0x1p-53;
  }
  return v;
}

TEST(Bounds, PointsAreTheInterpretersResultsInEveryOrder) {
  Program p = parse_and_check("(program ((xs (array f32 2)))"
                              " (atuple (fold (lambda ((a f32) (b f32)) (+ a (* b b))) 0f32 xs)"
                              "         (scanl (lambda ((a f32) (b f32)) (+ a b)) 1f32 xs)"
                              "         (map (lambda ((x f32)) (if (< x 0.5f32) (cast f32 (cast "
                              "i32 (* x 10f32))) (round (exp x)))) "
                              "              (fold1 (lambda ((a f32) (b f32)) (max a b)) xs))))");
  Array xs = Array::allocate(Type::scalar(ScalarKind::F32), {3, 7});
  auto v = random_terms(21, 3);
  for (int64_t i = 0; i < 21; ++i)
    xs.write(0, i, Scalar::make(float(v[size_t(i)])));
  for (const ReductionOrder& order : {ReductionOrder::canonical(), ReductionOrder::small()}) {
    InterpreterOptions options;
    options.order = order;
    std::vector<Array> expected = interpret(p, {xs}, options);
    for (bool any : {false, true}) {
      auto bounds = bound_program(p, {xs}, Freedoms{any, order, 0});
      ASSERT_EQ(bounds.size(), expected.size());
      for (size_t i = 0; i < bounds.size(); ++i) {
        EXPECT_TRUE(identical(bounds[i].value, expected[i])) << i;
        BoundedComparison c = compare_with_bounds(bounds[i], expected[i]);
        EXPECT_TRUE(c.ok()) << (c.messages.empty() ? "" : c.messages[0]);
      }
    }
  }
}

TEST(Bounds, ReplayedOrderIsExactAnyOrderIsNot) {
  Program p = parse_and_check(kSum);
  Array xs = array_of<double>(random_terms(1000, 1));
  auto exact = bound_program(p, {xs}, Freedoms{});
  EXPECT_EQ(exact[0].lo.read(0, 0).get<double>(), exact[0].value.read(0, 0).get<double>());
  EXPECT_EQ(exact[0].hi.read(0, 0).get<double>(), exact[0].value.read(0, 0).get<double>());
  auto any = bound_program(p, {xs}, Freedoms{true, ReductionOrder::canonical(), 0});
  BScalar b = any[0].leaf(0, 0);
  EXPECT_TRUE(b.determined());
  EXPECT_LT(b.lo, b.hi);
  // A fold whose combiner is not + min max cannot be reordered.
  Program minus = parse_and_check(
      "(program ((xs (array f64 1))) (fold (lambda ((a f64) (b f64)) (- a b)) 0.0 xs))");
  EXPECT_EQ(bound_program(minus, {xs}, Freedoms::numpy())[0].leaf(0, 0).why, Why::Order);
  // Integer sums are exact in every order.
  Program isum = parse_and_check(
      "(program ((xs (array i64 1))) (fold (lambda ((a i64) (b i64)) (+ a b)) 0 xs))");
  EXPECT_TRUE(bound_program(isum, {array_of<int64_t>({1, 2, 3})}, Freedoms::numpy())[0]
                  .leaf(0, 0)
                  .determined());
}

TEST(Bounds, OtherOrdersPassWrongSumsFail) {
  Program p = parse_and_check(kSum);
  std::vector<double> v = random_terms(100000, 7);
  auto bounds = bound_program(p, {array_of<double>(v)}, Freedoms::numpy());
  long double exact = 0;
  double reversed = 0;
  for (size_t i = v.size(); i-- > 0;) {
    exact += v[i];
    reversed += v[i];
  }
  EXPECT_TRUE(compare_with_bounds(bounds[0], scalar_array(reversed)).ok());
  EXPECT_TRUE(compare_with_bounds(bounds[0], scalar_array(double(exact))).ok());
  BoundedComparison dropped = compare_with_bounds(bounds[0], scalar_array(double(exact - v[5])));
  EXPECT_FALSE(dropped.ok());
  ASSERT_EQ(dropped.messages.size(), 1u);
  EXPECT_NE(dropped.messages[0].find("outside the bound ["), std::string::npos)
      << dropped.messages[0];
  EXPECT_NE(dropped.messages[0].find("ulps)"), std::string::npos) << dropped.messages[0];
  EXPECT_EQ(dropped.counts.bounded, 1);
}

TEST(Bounds, AToleranceCountsTheElementsBitwiseEqualAsBitwise) {
  BoundedComparison c = compare_within(array_of<double>({1.0, 2.0, 3.0}),
                                       array_of<double>({1.0, 2.000001, 3.0}), 1e-3, 0.0);
  EXPECT_TRUE(c.ok());
  EXPECT_EQ(c.counts.bitwise, 2);
  EXPECT_EQ(c.counts.bounded, 1);
  EXPECT_FALSE(compare_within(array_of<double>({1.0}), array_of<double>({1.1}), 1e-3, 0.0).ok());
}

TEST(Bounds, UndeterminedElementsAreComparedBitwiseWithTheirReason) {
  // x / (y - y): the divisor's interval holds 0.
  Program p = parse_and_check("(program ((xs (array f64 1)))"
                              " (map (lambda ((x f64)) (/ 1.0 (- x 1.0))) xs))");
  Array xs = array_of<double>({1.0, 3.0});
  auto bounds = bound_program(p, {xs}, Freedoms::numpy());
  EXPECT_EQ(bounds[0].leaf(0, 0).why, Why::Overflow); // 1 / 0 = inf
  EXPECT_TRUE(bounds[0].leaf(0, 1).determined());
  // Both found bitwise the interpreter's values: both counted bitwise, the
  // determined one too (`strata check` once said "0 bitwise, 200 under a
  // bound" of 200 elements each bitwise NumPy's).
  BoundedComparison same = compare_with_bounds(bounds[0], bounds[0].value);
  EXPECT_TRUE(same.ok());
  EXPECT_EQ(same.counts.bitwise, 2);
  EXPECT_EQ(same.counts.bounded, 0);
  BoundedComparison other = compare_with_bounds(bounds[0], array_of<double>({-INFINITY, 0.5}));
  EXPECT_FALSE(other.ok());
  EXPECT_EQ(other.counts.not_compared, 1);
  EXPECT_NE(other.messages[0].find("the bound overflows"), std::string::npos) << other.messages[0];
}

TEST(Bounds, UndecidedIfTakesTheHullOfBothBranches) {
  Program p = parse_and_check("(program ((xs (array f64 1)))"
                              " (map (lambda ((s f64)) (if (< s 2.0) 10.0 20.0))"
                              "      (fold (lambda ((a f64) (b f64)) (+ a b)) 0.0 xs)))");
  auto b = bound_program(p, {array_of<double>({0.1, 0.2, 1.7})}, Freedoms::numpy());
  BScalar s = b[0].leaf(0, 0);
  EXPECT_TRUE(s.determined()); // floats: the hull [10, 20]
  EXPECT_EQ(s.lo, 10);
  EXPECT_EQ(s.hi, 20);
}

// Every example's expected file lies inside the bounds NumPy's freedoms allow.
TEST(Bounds, ExamplesExpectedFilesLieInsideTheirBounds) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(STRATA_SOURCE_DIR) / "examples";
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".strata") continue;
    fs::path data = fs::path(entry.path()).replace_extension("");
    Program p = parse_program(
        [&] {
          std::ifstream in(entry.path());
          return std::string(std::istreambuf_iterator<char>(in), {});
        }(),
        entry.path().string());
    check_program(p);
    std::vector<Array> inputs;
    for (const Param& param : p.params)
      inputs.push_back(read_npy((data / (param.name + ".npy")).string()));
    auto bounds = bound_program(p, inputs, Freedoms::numpy());
    std::vector<Array> oracle = interpret(p, inputs);
    for (size_t i = 0; i < bounds.size(); ++i) {
      fs::path file = bounds.size() == 1 ? data / "expected.npy"
                                         : data / ("expected." + std::to_string(i) + ".npy");
      EXPECT_TRUE(identical(bounds[i].value, oracle[i])) << entry.path();
      BoundedComparison c = compare_with_bounds(bounds[i], read_npy(file.string()));
      EXPECT_TRUE(c.ok()) << file << ": " << (c.messages.empty() ? "" : c.messages[0]);
      EXPECT_EQ(c.counts.not_compared, 0) << file;
      ++checked;
    }
  }
  EXPECT_GT(checked, 20);
}

// Soundness on random programs of the differential harness's generator: the
// canonical, blocked and small orders all lie inside the any-order bounds
// (an element may only fail when it is undetermined), and a value moved
// outside a determined bound fails.
TEST(Bounds, GeneratedProgramsInEveryOrderLieInsideTheAnyOrderBounds) {
  ElementCounts total;
  int programs = 0, moved = 0;
  int64_t determined_floats = 0;
#ifdef NDEBUG
  const uint64_t seeds = 600;
#else
  const uint64_t seeds = 150; // debug and sanitizer builds
#endif
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    GeneratedCase c = generate_case(seed, int(seed % 50));
    Program p = c.checked();
    std::vector<Array> canonical;
    try {
      canonical = interpret(p, c.inputs);
    } catch (const Error&) {
      continue;
    }
    auto bounds = bound_program(p, c.inputs, Freedoms{true, ReductionOrder::canonical(), 0});
    ASSERT_EQ(bounds.size(), canonical.size());
    ++programs;
    for (const ReductionOrder& order :
         {ReductionOrder::canonical(), ReductionOrder::blocked(), ReductionOrder::small()}) {
      InterpreterOptions options;
      options.order = order;
      std::vector<Array> other;
      try {
        other = interpret(p, c.inputs, options);
      } catch (const Error&) {
        continue; // another order may take another branch into an error
      }
      for (size_t i = 0; i < bounds.size(); ++i) {
        if (order.is_canonical()) {
          ASSERT_TRUE(identical(bounds[i].value, other[i])) << c.text;
        }
        BoundedComparison r = compare_with_bounds(bounds[i], other[i]);
        EXPECT_EQ(r.failures, r.counts.not_compared) << c.text << "\n"
                                                     << order.describe() << ": " << r.messages[0];
        total += r.counts;
      }
    }
    for (const BoundedArray& b : bounds)
      for (size_t leaf = 0; leaf < b.value.num_leaves(); ++leaf)
        for (int64_t e = 0; e < b.size(); ++e)
          determined_floats += b.leaf(leaf, e).determined() && b.leaf(leaf, e).is_float();
    // The first determined float element moved past its bound fails.
    for (size_t i = 0; i < bounds.size() && moved < programs; ++i) {
      for (size_t leaf = 0; leaf < bounds[i].value.num_leaves(); ++leaf) {
        for (int64_t e = 0; e < bounds[i].size(); ++e) {
          BScalar b = bounds[i].leaf(leaf, e);
          if (!b.determined() || !b.is_float() || b.exact_nan() || std::fabs(b.hi) > 1e30) continue;
          Array wrong = Array::allocate(bounds[i].value.elem_type(), bounds[i].shape());
          for (size_t l = 0; l < wrong.num_leaves(); ++l)
            for (int64_t k = 0; k < wrong.size(); ++k)
              wrong.write(l, k, bounds[i].value.read(l, k));
          double past = b.hi + std::fabs(b.hi) * 1e-3 + 1;
          wrong.write(leaf, e,
                      b.point.kind() == ScalarKind::F32 ? Scalar::make(float(past))
                                                        : Scalar::make(past));
          EXPECT_FALSE(compare_with_bounds(bounds[i], wrong).ok()) << c.text;
          ++moved;
          leaf = bounds[i].value.num_leaves();
          break;
        }
      }
    }
  }
  std::cout << programs << " programs, " << moved << " moved values; " << total.str() << "\n";
  EXPECT_GT(programs, int(seeds) * 2 / 3);
  EXPECT_GT(moved, int(seeds) / 15);
  // Floats with a determined bound: compared under it (or counted bitwise
  // when found equal, as these small programs mostly are in every order).
  EXPECT_GT(determined_floats, int64_t(seeds) / 6);
}

} // namespace
} // namespace strata
