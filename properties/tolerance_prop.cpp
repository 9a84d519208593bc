// The float tolerance policy (oracle/tolerance.h): reassociated sums pass,
// a wrong operator, a dropped or duplicated element and an off-by-one fail;
// and the classification of programs into exact / bounded / unconstrained.
#include <cmath>
#include <numeric>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "core/check.h"
#include "core/parser.h"
#include "interpreter/interpreter.h"
#include "oracle/tolerance.h"
#include "properties/property.h"

namespace strata {
namespace {

Array vector_f64(const std::vector<double>& v) {
  Array a = Array::allocate(Type::scalar(ScalarKind::F64), {int64_t(v.size())});
  for (size_t i = 0; i < v.size(); ++i)
    a.write(0, int64_t(i), Scalar::make<double>(v[i]));
  return a;
}
Array scalar_f64(double v) {
  Array a = Array::allocate(Type::scalar(ScalarKind::F64), {});
  a.write(0, 0, Scalar::make<double>(v));
  return a;
}

const char* kSum =
    "(program ((xs (array f64 1))) (fold (lambda ((a f64) (b f64)) (+ a b)) 0.0 xs))";

struct SumCase {
  Program program;
  Array xs;
  Array oracle;
  ProgramTolerance tol;
};

SumCase sum_case(const std::vector<double>& v) {
  SumCase s{parse_program(kSum, "sum.strata"), vector_f64(v), {}, {}};
  check_program(s.program);
  s.oracle = interpret(s.program, {s.xs})[0];
  s.tol = derive_tolerance(s.program, {s.xs});
  return s;
}

// Pairwise (tree) summation: one of the orders an engine may use.
double pairwise(const std::vector<double>& v, size_t lo, size_t hi) {
  if (hi - lo == 0) return 0.0;
  if (hi - lo == 1) return v[lo];
  size_t mid = lo + (hi - lo) / 2;
  return pairwise(v, lo, mid) + pairwise(v, mid, hi);
}

rc::Gen<std::vector<double>> gen_terms() {
  return rc::gen::suchThat(
      rc::gen::container<std::vector<double>>(rc::gen::map(
          rc::gen::inRange(-80000, 80000), [](int k) { return double(k) / 64.0 + 0.1; })),
      [](const std::vector<double>& v) { return v.size() >= 2; });
}

TEST(Tolerance, ReassociatedSumsPass) {
  prop::check(300, [] {
    std::vector<double> v = *gen_terms();
    SumCase s = sum_case(v);
    RC_ASSERT(s.tol.results.size() == 1u);
    RC_ASSERT(s.tol.results[0].mode == ResultTolerance::Mode::Bounded);
    double reversed = 0.0;
    for (size_t i = v.size(); i-- > 0;)
      reversed = reversed + v[i];
    RC_ASSERT(!compare_with_tolerance(s.oracle, scalar_f64(reversed), s.tol.results[0]));
    RC_ASSERT(!compare_with_tolerance(s.oracle, scalar_f64(0.0 + pairwise(v, 0, v.size())),
                                      s.tol.results[0]));
  });
}

TEST(Tolerance, CatchesDroppedDuplicatedAndWrongOperator) {
  prop::check(300, [] {
    std::vector<double> v = *gen_terms();
    SumCase s = sum_case(v);
    const ResultTolerance& t = s.tol.results[0];
    double exact = std::accumulate(v.begin(), v.end(), 0.0);
    size_t k = *rc::gen::inRange<size_t>(0, v.size());
    RC_ASSERT(compare_with_tolerance(s.oracle, scalar_f64(exact - v[k]), t)); // dropped
    RC_ASSERT(compare_with_tolerance(s.oracle, scalar_f64(exact + v[k]), t)); // duplicated
    double with_minus = v[0];
    for (size_t i = 1; i < v.size(); ++i)
      with_minus -= v[i];
    if (std::fabs(with_minus - exact) > 1e-6) // `-` instead of `+`
      RC_ASSERT(compare_with_tolerance(s.oracle, scalar_f64(with_minus), t));
  });
}

TEST(Tolerance, ScanOffByOneIsCaught) {
  prop::check(200, [] {
    std::vector<double> v = *gen_terms();
    Program p = parse_program(
        "(program ((xs (array f64 1))) (scanl1 (lambda ((a f64) (b f64)) (+ a b)) xs))", "s");
    check_program(p);
    Array xs = vector_f64(v);
    Array oracle = interpret(p, {xs})[0];
    ProgramTolerance tol = derive_tolerance(p, {xs});
    RC_ASSERT(tol.results[0].mode == ResultTolerance::Mode::Bounded);
    RC_ASSERT(!compare_with_tolerance(oracle, oracle, tol.results[0]));
    // shifted by one: element i holds the prefix sum of i-1
    Array shifted = Array::allocate(Type::scalar(ScalarKind::F64), {int64_t(v.size())});
    for (int64_t i = 0; i < oracle.size(); ++i)
      shifted.write(0, i, i == 0 ? Scalar::make<double>(0.0) : oracle.read(0, i - 1));
    RC_ASSERT(compare_with_tolerance(oracle, shifted, tol.results[0]));
  });
}

TEST(Tolerance, SummationBoundSpecialValues) {
  double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(summation_bound({1.0, std::nan(""), 2.0}, ScalarKind::F64), 0.0);
  EXPECT_EQ(summation_bound({1.0, inf, 2.0}, ScalarKind::F64), 0.0);
  EXPECT_EQ(summation_bound({1e308, 1e308, -1e308}, ScalarKind::F64), inf);
  EXPECT_EQ(summation_bound({3.0}, ScalarKind::F32) < 1e-40, true);
  EXPECT_GT(summation_bound({1.0, 2.0, 3.0}, ScalarKind::F32), 0.0);
}

TEST(Tolerance, Classification) {
  auto modes = [](const char* text) {
    Program p = parse_program(text, "t.strata");
    check_program(p);
    Array xs = vector_f64({1.0, 2.0, 3.0});
    std::vector<std::string> out;
    for (const auto& r : derive_tolerance(p, {xs}).results)
      out.emplace_back(mode_name(r.mode));
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(modes("(program ((xs (array f64 1))) (map (lambda ((x f64)) (* x 2.0)) xs))"),
            V{"exact"});
  EXPECT_EQ(modes("(program ((xs (array f64 1))) (fold (lambda ((a f64) (b f64)) (max a b)) 0.0 "
                  "xs))"),
            V{"exact"});
  EXPECT_EQ(modes("(program ((xs (array f64 1))) (alet ((s (scanl (lambda ((a f64) (b f64)) (+ a "
                  "b)) 0.0 xs))) (atuple s (atrace \"t\" s) xs)))"),
            (V{"bounded", "bounded", "exact"}));
  EXPECT_EQ(modes("(program ((xs (array f64 1))) (map (lambda ((x f64)) (< x 1.0)) (fold "
                  "(lambda ((a f64) (b f64)) (+ a b)) 0.0 xs)))"),
            V{"unconstrained"});
}

} // namespace
} // namespace strata
