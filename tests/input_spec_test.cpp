// Input specs (oracle/input_spec.h): parsed as documented, checked against
// the program with one-line errors naming the spec, drawn deterministically
// for a seed, inside their ranges, with the edge values the range allows.
#include <cmath>
#include <set>

#include <gtest/gtest.h>

#include "core/check.h"
#include "core/parser.h"
#include "oracle/input_spec.h"

namespace strata {
namespace {

Program program(const std::string& text) {
  Program p = parse_program(text, "p.strata");
  check_program(p);
  return p;
}

InputSpecs bound(const std::vector<std::string>& lines, const Program& p) {
  InputSpecs s;
  for (const std::string& l : lines)
    parse_input_spec(l, "--input", s);
  bind_input_specs(s, p);
  return s;
}

// The message of the Error(Input) that binding these specs raises.
std::string error_of(const std::vector<std::string>& lines, const std::string& text) {
  try {
    bound(lines, program(text));
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    return e.what();
  }
  return "no error";
}

const char* kVec = "(program ((xs (array f32 1))) (map (lambda (x) (* x 2.0f32)) xs))";

TEST(InputSpec, BadSpecsAreOneLineErrorsNamingTheSpec) {
  auto has = [](const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
  };
  std::string e = error_of({"xs f32[n]"}, kVec);
  EXPECT_TRUE(has(e, "--input 'xs f32[n]'")) << e;
  e = error_of({"ys: f32[n]", "n: 1..4"}, kVec);
  EXPECT_TRUE(has(e, "no parameter `ys`") && has(e, "its parameters: xs")) << e;
  e = error_of({"xs: f64[n]", "n: 1..4"}, kVec);
  EXPECT_TRUE(has(e, "'xs: f64[n]'") && has(e, "(array f32 1)")) << e;
  e = error_of({"xs: f32[n, n]", "n: 1..4"}, kVec);
  EXPECT_TRUE(has(e, "rank 2")) << e;
  e = error_of({"xs: f32[n] in [1, -1]", "n: 1..4"}, kVec);
  EXPECT_TRUE(has(e, "the range [1, -1] is empty")) << e;
  e = error_of({"xs: f32[n]", "n: 9..4"}, kVec);
  EXPECT_TRUE(has(e, "'n: 9..4'") && has(e, "empty")) << e;
  e = error_of({"xs: f32[m]", "n: 1..4"}, kVec);
  EXPECT_TRUE(has(e, "size variable `m` is not given")) << e;
  e = error_of({"xs: f32[n]", "n: 1..100000000000000"}, kVec);
  EXPECT_TRUE(has(e, "more than the memory limit")) << e;
  e = error_of({"n: 1..4"}, kVec);
  EXPECT_TRUE(has(e, "parameter `xs` of type (array f32 1) has no input spec")) << e;
  e = error_of({"xs: q7[n]", "n: 1..4"}, kVec);
  EXPECT_TRUE(has(e, "`q7` is not an element type")) << e;
  e = error_of({"k: i8 in [0, 300]"}, "(program ((k (array i8 0))) (map (lambda (x) x) k))");
  EXPECT_TRUE(has(e, "does not fit i8")) << e;
  e = error_of({"k: i64 in [0.5, 3]"}, "(program ((k (array i64 0))) (map (lambda (x) x) k))");
  EXPECT_TRUE(has(e, "must be integers")) << e;
}

TEST(InputSpec, CommentsOpeningTheProgramAreSpecs) {
  std::string text = ";; A doubling.\n;\n;;;;\n;; input xs: f32[n] in [-1, 1]\n; input n: 3..5\n" +
                     std::string(kVec) + "\n;; input ignored: i64\n";
  InputSpecs s;
  parse_input_comments(text, "p.strata", s);
  ASSERT_EQ(s.arrays.size(), 1u);
  ASSERT_EQ(s.sizes.size(), 1u);
  EXPECT_EQ(s.arrays[0].origin, "p.strata:4: input 'xs: f32[n] in [-1, 1]'");
  EXPECT_EQ(s.sizes[0].lo, 3);
  EXPECT_EQ(s.sizes[0].hi, 5);
}

TEST(InputSpec, DrawnInsideTheRangeWithItsEdgesDeterministically) {
  Program p = program(kVec);
  InputSpecs s = bound({"xs: f32[n] in [-1, 1]", "n: 2000..5000"}, p);
  EXPECT_EQ(draw_sizes(s, 7, 0).at("n"), 2000); // trial 0: smallest
  EXPECT_EQ(draw_sizes(s, 7, 1).at("n"), 5000); // trial 1: largest
  Sizes sizes = draw_sizes(s, 7, 2);
  EXPECT_GE(sizes.at("n"), 2000);
  EXPECT_LE(sizes.at("n"), 5000);
  Array a = draw_inputs(s, sizes, 7, 2)[0];
  Array again = draw_inputs(s, sizes, 7, 2)[0];
  Array other = draw_inputs(s, sizes, 8, 2)[0];
  bool same = true, differs = false, zero = false, negzero = false, lo = false, hi = false;
  for (int64_t i = 0; i < a.size(); ++i) {
    float v = a.read(0, i).get<float>();
    EXPECT_TRUE(v >= -1 && v <= 1) << v;
    same = same && a.read(0, i).identical(again.read(0, i));
    differs = differs || !a.read(0, i).identical(other.read(0, i));
    zero = zero || (v == 0 && !std::signbit(v));
    negzero = negzero || (v == 0 && std::signbit(v));
    lo = lo || v == -1;
    hi = hi || v == 1;
  }
  EXPECT_TRUE(same);
  EXPECT_TRUE(differs);
  EXPECT_TRUE(zero && negzero && lo && hi);
}

TEST(InputSpec, NoRangeMeansEveryValueNaNAndInfinitiesToo) {
  Program p = program("(program ((xs (array f64 1)) (ks (array i16 1))) (zipwith (lambda (x k) "
                      "(+ x (cast f64 k))) xs ks))");
  InputSpecs s = bound({"xs: f64[n]", "ks: i16[n]", "n: 4000"}, p);
  std::vector<Array> in = draw_inputs(s, draw_sizes(s, 1, 0), 1, 0);
  bool nan = false, inf = false, ninf = false, min = false, max = false;
  for (int64_t i = 0; i < in[0].size(); ++i) {
    double v = in[0].read(0, i).get<double>();
    nan = nan || std::isnan(v);
    inf = inf || v == INFINITY;
    ninf = ninf || v == -INFINITY;
    int16_t k = in[1].read(0, i).get<int16_t>();
    min = min || k == -32768;
    max = max || k == 32767;
  }
  EXPECT_TRUE(nan && inf && ninf);
  EXPECT_TRUE(min && max);
}

// What `strata bench` times by default: the same ranges without the edges,
// so no subnormal, infinity or NaN (and no integer at MIN/MAX by choice).
TEST(InputSpec, TypicalValuesHaveNoEdgeValues) {
  Program p = program("(program ((xs (array f64 1)) (ys (array f32 1))) (zipwith (lambda (x y) "
                      "(+ x (cast f64 y))) xs ys))");
  InputSpecs s = bound({"xs: f64[n]", "ys: f32[n] in [-1, 1]", "n: 4000"}, p);
  std::vector<Array> typical = draw_inputs(s, draw_sizes(s, 1, 0), 1, 0, Values::Typical);
  std::vector<Array> edges = draw_inputs(s, draw_sizes(s, 1, 0), 1, 0, Values::WithEdges);
  auto unusual = [](const Array& xs, const Array& ys) {
    int64_t n = 0;
    for (int64_t i = 0; i < xs.size(); ++i) {
      double x = xs.read(0, i).get<double>();
      float y = ys.read(0, i).get<float>();
      n += !std::isnormal(x) || !std::isnormal(y) || y == -1 || y == 1;
    }
    return n;
  };
  EXPECT_EQ(unusual(typical[0], typical[1]), 0);
  EXPECT_GT(unusual(edges[0], edges[1]), 4000 / 16); // about 1 in 8 of each
}

TEST(InputSpec, IntegerRangesAreExactAtTheEndsOfSixtyFourBits) {
  Program p = program("(program ((us (array u64 1)) (is (array i64 2))) (atuple us is))");
  InputSpecs s = bound(
      {"us: u64[n] in [18446744073709551610, 18446744073709551615]", "is: i64[2, n]", "n: 500"}, p);
  std::vector<Array> in = draw_inputs(s, draw_sizes(s, 3, 0), 3, 0);
  std::set<uint64_t> seen;
  for (int64_t i = 0; i < in[0].size(); ++i)
    seen.insert(in[0].read(0, i).get<uint64_t>());
  EXPECT_EQ(seen, (std::set<uint64_t>{18446744073709551610u, 18446744073709551611u,
                                      18446744073709551612u, 18446744073709551613u,
                                      18446744073709551614u, 18446744073709551615u}));
  EXPECT_EQ(in[1].shape(), (Shape{2, 500}));
}

TEST(InputSpec, TruncationKeepsTheLeadingBox) {
  Program p = program("(program ((m (array i32 2))) (map (lambda (x) x) m))");
  InputSpecs s = bound({"m: i32[r, 3] in [0, 100]", "r: 4"}, p);
  Array a = draw_inputs(s, draw_sizes(s, 1, 0), 1, 0)[0];
  Array t = truncate_to(a, {2, 2});
  ASSERT_EQ(t.shape(), (Shape{2, 2}));
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 2; ++j)
      EXPECT_TRUE(t.read(0, i * 2 + j).identical(a.read(0, i * 3 + j)));
}

TEST(InputSpec, SimpleValuesStartAtZeroWhenTheRangeHasIt) {
  ArraySpec a;
  a.elem = ScalarKind::I32;
  a.range = std::pair{-5.0L, 5.0L};
  std::vector<Scalar> v = simple_values(a);
  ASSERT_GE(v.size(), 3u);
  EXPECT_EQ(v[0].get<int32_t>(), 0);
  EXPECT_EQ(v[1].get<int32_t>(), 1);
  a.range = std::pair{10.0L, 20.0L};
  v = simple_values(a);
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v[0].get<int32_t>(), 10);
}

} // namespace
} // namespace strata
