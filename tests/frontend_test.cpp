// Tests of the embedded C++ front end (frontend/): the IR that C++ programs
// build (checked against the text form), sharing recovery (on the produced IR),
// deep programs, host inputs, and compile-once execution.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "core/large_stack.h"
#include "core/parser.h"
#include "core/printer.h"
#include "frontend/frontend.h"
#include "oracle/registry.h"
#include "tests/test_util.h"

namespace {
using namespace strata::fe;
using strata::Engine;
using strata::Error;
using strata::Program;
using strata::test::array_of;
using strata::test::parse_and_check;
using strata::test::values_of;
namespace ac = strata::ac;

const Engine& interp() {
  return *strata::find_engine("interp");
}

// The canonical text of the program of fn, checked to parse back to the same IR.
template <class F> std::string text_of(F fn) {
  auto p = strata::fe::program(fn);
  std::string text = strata::print_program(p->program);
  Program back = strata::parse_program(text, "traced.strata");
  EXPECT_TRUE(strata::equal(back, p->program)) << text;
  Program checked = parse_and_check(text);
  (void)checked;
  return text;
}

std::string strip(const std::string& s) { // collapse whitespace, for comparing layouts
  std::string out;
  for (char c : s) {
    if (c == '\n' || c == ' ') {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ')
    out.pop_back();
  return out;
}

// ------------------------------------------------------------------ the IR

TEST(Frontend, DotpGivesTheSameIrAsItsText) {
  auto dotp = [](Acc<Vector<float>> xs, Acc<Vector<float>> ys) {
    return fold([](auto a, auto b) { return a + b; }, 0.0f,
                zipWith([](auto x, auto y) { return x * y; }, xs, ys));
  };
  EXPECT_EQ(strip(text_of(dotp)),
            strip("(program ((p0 (array f32 1)) (p1 (array f32 1))) (fold (lambda ((x0 f32) (x1 "
                  "f32)) (+ x0 x1)) 0.0f32 (zipwith (lambda ((x2 f32) (x3 f32)) (* x2 x3)) p0 "
                  "p1)))"));
  strata::Array r =
      strata::run(interp(), dotp, std::vector<float>{1, 2, 3}, std::vector<float>{4, 5, 6});
  EXPECT_EQ(values_of<float>(r), std::vector<float>{32});
}

TEST(Frontend, EveryPrimitiveHasAnOperatorOrFunction) {
  auto f = [](Acc<Vector<int32_t>> xs, Acc<Vector<double>> ds) {
    auto ints = map(
        [](Exp<int32_t> a) {
          Exp<int32_t> b = 3;
          auto t = tup(a + b, a - b, a * b, -a, abs(a), signum(a), min(a, b), max(a, b), quot(a, b),
                       rem(a, b), div(a, b), mod(a, b), a / b, a % b);
          auto u = tup(a & b, a | b, a ^ b, ~a, a << b, a >> b, shl(a, 1), shr(a, 1), bnot(a),
                       popcount(a), clz(a), ctz(a), neg(a));
          auto c = tup(a == b, a != b, a<b, a <= b, a> b, a >= b, (a < b) && (a > 0),
                       (a < b) || !(a > 0));
          return tup(t, u, c);
        },
        xs);
    auto floats = map(
        [](Exp<double> x) {
          return tup(sqrt(x), exp(x), log(x), sin(x), cos(x), tan(x), asin(x), acos(x), atan(x),
                     sinh(x), cosh(x), tanh(x), atan2(x, 2.0), pow(x, 2.0), floor(x), ceil(x),
                     round(x), trunc(x), isnan(x), isinf(x), fdiv(x, 4.0), x / 4.0);
        },
        ds);
    return atuple(ints, floats);
  };
  std::string text = text_of(f);
  for (const char* op :
       {"(+ ",     "(- ",     "(* ",        "(neg ", "(abs ",   "(signum ", "(min ",   "(max ",
        "(quot ",  "(rem ",   "(div ",      "(mod ", "(band ",  "(bor ",    "(bxor ",  "(bnot ",
        "(shl ",   "(shr ",   "(popcount ", "(clz ", "(ctz ",   "(== ",     "(/= ",    "(< ",
        "(<= ",    "(> ",     "(>= ",       "(and ", "(or ",    "(not ",    "(sqrt ",  "(exp ",
        "(log ",   "(sin ",   "(cos ",      "(tan ", "(asin ",  "(acos ",   "(atan ",  "(sinh ",
        "(cosh ",  "(tanh ",  "(atan2 ",    "(pow ", "(floor ", "(ceil ",   "(round ", "(trunc ",
        "(isnan ", "(isinf ", "(/ "})
    EXPECT_NE(text.find(op), std::string::npos) << op;
  auto r = strata::run(interp(), f, std::vector<int32_t>{-7, 10}, std::vector<double>{0.5});
  ASSERT_EQ(r.size(), 2u);
  // -7 and 3: quot -2, rem -1, div -3, mod 2; / and % are quot and rem.
  EXPECT_EQ(r[0].read(8, 0).get<int32_t>(), -2);
  EXPECT_EQ(r[0].read(9, 0).get<int32_t>(), -1);
  EXPECT_EQ(r[0].read(10, 0).get<int32_t>(), -3);
  EXPECT_EQ(r[0].read(11, 0).get<int32_t>(), 2);
  EXPECT_EQ(r[0].read(12, 0).get<int32_t>(), -2);
  EXPECT_EQ(r[0].read(13, 0).get<int32_t>(), -1);
  EXPECT_EQ(r[1].read(0, 0).get<double>(), std::sqrt(0.5));
  EXPECT_EQ(r[1].read(21, 0).get<double>(), 0.125);
}

TEST(Frontend, CollectiveOperationsRoundTripAndRun) {
  auto f = [](Acc<Matrix<float>> m, Acc<Vector<int64_t>> segs) {
    auto rows = fold([](auto a, auto b) { return a + b; }, 0.0f, m);
    auto sc = scanl([](auto a, auto b) { return a + b; }, 1.0f, rows);
    auto s1 = scanl1([](auto a, auto b) { return max(a, b); }, rows);
    auto sr = scanr([](auto a, auto b) { return a - b; }, 0.0f, rows);
    auto sr1 = scanr1([](auto a, auto b) { return a * b; }, rows);
    auto sp = scanl_([](auto a, auto b) { return a + b; }, 0.0f, rows);
    auto f1 = fold1([](auto a, auto b) { return min(a, b); }, m);
    auto fs = foldSeg([](auto a, auto b) { return a + b; }, 0.0f, m, segs);
    auto g =
        generate(ix(2, 3), [](Exp<Ix<2>> i) { return cast<float>(get<0>(i) * 3 + get<1>(i)); });
    auto fl = fill(shape(m), 1.5f);
    auto hist =
        permute([](auto a, auto b) { return a + b; }, fill(ix(2), 0.0f),
                [](Exp<Ix<2>> i) { return cond(get<1>(i) == 0, ignore<1>(), ix(get<0>(i))); }, m);
    auto tr = backpermute(
        ix(get<1>(shape(m)), get<0>(shape(m))),
        [](Exp<Ix<2>> i) { return ix(get<1>(i), get<0>(i)); }, m);
    auto flat = reshape(ix(size(m)), m);
    auto rep = replicate(spec(2, All), rows);
    auto row = slice(m, spec(1, All));
    auto blur = stencil<3, 3>([](const Window<float, 2>& nb) { return nb(-1, 0) + nb(0, 1); },
                              boundary::clamp, m);
    auto cst = stencil<1, 3>([](const Window<float, 2>& nb) { return nb(0, -1); },
                             boundary::constant(9.0f), m);
    auto u = unit(the(fold1([](auto a, auto b) { return a + b; }, flat)));
    auto lin = map(
        [=](Exp<float>) {
          return linear_index(flat, 1) + cast<float>(to_index(shape(m), from_index(shape(m), 4)));
        },
        rows);
    auto halves = awhile(
        [](Acc<Vector<float>> s) {
          return map([](Exp<float> x) { return x > 1.0f; },
                     fold1([](auto a, auto b) { return max(a, b); }, s));
        },
        [](Acc<Vector<float>> s) { return map([](Exp<float> x) { return x / 2.0f; }, s); }, rows);
    auto choice = acond(the(unit(Exp<bool>(true))), atrace("rows", rows), sc);
    return atuple(sc, s1, sr, sr1, aget<0>(sp), aget<1>(sp), f1, fs, g, fl, hist, tr, flat, rep,
                  row, blur, cst, u, lin, halves, choice);
  };
  std::string text = text_of(f);
  strata::Array m = array_of<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  strata::Array segs = array_of<int64_t>({1, 2});
  auto r = strata::run(interp(), f, m, segs);
  ASSERT_EQ(r.size(), 21u);
  EXPECT_EQ(values_of<float>(r[0]), (std::vector<float>{1, 7, 22}));    // scanl from 1: rows 6, 15
  EXPECT_EQ(values_of<float>(r[7]), (std::vector<float>{1, 5, 4, 11})); // segments (1)(2,3) ...
  EXPECT_EQ(values_of<float>(r[10]), (std::vector<float>{5, 11}));      // column 0 dropped
  EXPECT_EQ(values_of<float>(r[11]), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(values_of<float>(r[14]), (std::vector<float>{4, 5, 6}));
  EXPECT_EQ(values_of<float>(r[16]), (std::vector<float>{9, 1, 2, 9, 4, 5}));
  EXPECT_EQ(values_of<float>(r[17]), (std::vector<float>{21}));
  EXPECT_EQ(values_of<float>(r[18]), (std::vector<float>{6, 6}));
  EXPECT_EQ(values_of<float>(r[19]), (std::vector<float>{0.375f, 0.9375f}));
}

TEST(Frontend, ScalarLoopsAndTuples) {
  // Collatz steps of each element, with a while over (n, steps).
  auto steps = [](Acc<Vector<int64_t>> xs) {
    return map(
        [](Exp<int64_t> x) {
          auto s = while_([](Exp<std::tuple<int64_t, int64_t>> s) { return get<0>(s) != 1; },
                          [](Exp<std::tuple<int64_t, int64_t>> s) {
                            auto n = get<0>(s);
                            return tup(cond(n % 2 == 0, n / 2, 3 * n + 1), get<1>(s) + 1);
                          },
                          tup(x, int64_t(0)));
          return get<1>(s);
        },
        xs);
  };
  text_of(steps);
  strata::Array r = strata::run(interp(), steps, std::vector<int64_t>{1, 6, 27});
  EXPECT_EQ(values_of<int64_t>(r), (std::vector<int64_t>{0, 8, 111}));
}

// ----------------------------------------------------------------- sharing

TEST(FrontendSharing, AnArrayUsedTwiceIsBoundOnce) {
  auto f = [](Acc<Vector<float>> x) {
    auto y = map([](Exp<float> v) { return v * 2.0f; }, x);
    return zipWith([](auto a, auto b) { return a + b; }, y, y);
  };
  EXPECT_EQ(text_of(f), "(program ((p0 (array f32 1)))\n"
                        "  (alet ((a0 (map (lambda ((x0 f32)) (* x0 2.0f32)) p0)))\n"
                        "    (zipwith (lambda ((x1 f32) (x2 f32)) (+ x1 x2)) a0 a0)))\n");
}

TEST(FrontendSharing, AScalarUsedTwiceIsBoundOnceInItsFunction) {
  auto f = [](Acc<Vector<float>> x) {
    return map(
        [](Exp<float> v) {
          auto s = sqrt(v + 1.0f);
          return s * s;
        },
        x);
  };
  EXPECT_EQ(strip(text_of(f)), strip("(program ((p0 (array f32 1))) (map (lambda ((x0 f32)) (let "
                                     "((v0 (sqrt (+ x0 1.0f32)))) (* v0 v0))) p0))"));
}

TEST(FrontendSharing, ArraysReadInsideFunctionsBecomeVariables) {
  // The reversed array is read with [] inside generate's function: it must be
  // an array variable, so it is bound with alet even though it is used once.
  auto f = [](Acc<Vector<float>> x) {
    auto r = map([](Exp<float> v) { return v + 1.0f; }, x);
    return generate(shape(x), [=](Exp<Ix<1>> i) { return r[ix(size(x) - 1 - get<0>(i))]; });
  };
  std::string text = text_of(f);
  EXPECT_NE(text.find("(alet ((a0 (map"), std::string::npos) << text;
  EXPECT_NE(text.find("(! a0 "), std::string::npos) << text;
  strata::Array r = strata::run(interp(), f, std::vector<float>{1, 2, 3});
  EXPECT_EQ(values_of<float>(r), (std::vector<float>{4, 3, 2}));
}

TEST(FrontendSharing, SharedScalarsInBranchesAreNotHoistedAboveTheCondition) {
  // xs[i - 1] is shared by both uses in the `then` branch only: it is bound
  // inside that branch, never evaluated when i == 0 (which would be out of range).
  auto f = [](Acc<Vector<float>> xs) {
    return generate(shape(xs), [=](Exp<Ix<1>> ix1) {
      auto i = get<0>(ix1);
      auto prev = xs[ix(i - 1)];
      return cond(i > 0, prev * prev, 0.0f);
    });
  };
  std::string text = text_of(f);
  EXPECT_NE(text.find("(let ((v0 (proj 0 x0))) (if (> v0 0) (let ((v1 (! p0"), std::string::npos)
      << text;
  strata::Array r = strata::run(interp(), f, std::vector<float>{2, 3});
  EXPECT_EQ(values_of<float>(r), (std::vector<float>{0, 4}));
}

TEST(FrontendSharing, ValuesUsedInBothBranchesAreComputedInEach) {
  auto f = [](Acc<Vector<float>> xs) {
    return map(
        [](Exp<float> x) {
          auto k = x * x + 1.0f;
          auto c = k * k;
          return cond(x > 0.0f, 1.0f - c, c);
        },
        xs);
  };
  std::string text = text_of(f);
  // c is recomputed in each branch; inside each copy k is bound once.
  EXPECT_NE(
      strip(text).find("(if (> x0 0.0f32) (- 1.0f32 (let ((v0 (+ (* x0 x0) 1.0f32))) (* v0 v0))) "
                       "(let ((v0 (+ (* x0 x0) 1.0f32))) (* v0 v0)))"),
      std::string::npos)
      << text;
  strata::Array r = strata::run(interp(), f, std::vector<float>{1, -1});
  EXPECT_EQ(values_of<float>(r), (std::vector<float>{-3, 4}));
}

TEST(FrontendSharing, BindingsStayInsideTheAwhileFunctionThatTheyUse) {
  auto f = [](Acc<Vector<float>> xs) {
    auto total = fold([](auto a, auto b) { return a + b; }, 0.0f, xs);
    return awhile(
        [](Acc<Vector<float>> s) {
          auto m = fold1([](auto a, auto b) { return max(a, b); }, s);
          return map([](Exp<float> v) { return v > 1.0f; }, m);
        },
        [=](Acc<Vector<float>> s) {
          auto h = map([](Exp<float> v) { return v / 2.0f; }, s); // uses s: stays inside
          return zipWith([](auto a, auto b) { return a + b * 0.0f; }, h,
                         map([=](Exp<float> v) { return v + the(total) * 0.0f; }, h));
        },
        xs);
  };
  std::string text = text_of(f);
  // h (which uses the state s1) and total (used only in the body) are bound in the body.
  EXPECT_NE(strip(text).find("(lambda ((s1 (array f32 1))) (alet ((a0 (map (lambda ((x3 f32)) (/ "
                             "x3 2.0f32)) s1)) (a1 (fold"),
            std::string::npos)
      << text;
  strata::Array r = strata::run(interp(), f, std::vector<float>{8, 2});
  EXPECT_EQ(values_of<float>(r), (std::vector<float>{1, 0.25f}));
}

TEST(FrontendSharing, NestedDataParallelismIsRejected) {
  // unit(x) depends on the parameter of map's function: a collective inside a
  // scalar function, which the language cannot express.
  auto f = [](Acc<Vector<float>> xs) { return map([](Exp<float> x) { return the(unit(x)); }, xs); };
  try {
    strata::fe::program(f);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("nested data parallelism"), std::string::npos) << e.what();
  }
}

TEST(FrontendSharing, LoopInvariantArraysInsideFunctionsAreFloatedOut) {
  // A collective built inside a scalar function that does not depend on the
  // function's parameter is computed once, outside (as Accelerate does).
  auto f = [](Acc<Vector<float>> xs) {
    return map(
        [=](Exp<float> x) { return x + the(fold1([](auto a, auto b) { return a + b; }, xs)); }, xs);
  };
  std::string text = text_of(f);
  EXPECT_EQ(text.find("(alet ((a0 (fold"), text.find("(alet")) << text;
  strata::Array r = strata::run(interp(), f, std::vector<float>{1, 2});
  EXPECT_EQ(values_of<float>(r), (std::vector<float>{4, 5}));
}

// ------------------------------------------------------------ deep programs

constexpr int kDepth = 10000;

TEST(FrontendDeep, TenThousandNestedMapsTraceCheckAndRun) {
  auto start = std::chrono::steady_clock::now();
  auto chain = [](Acc<Vector<int32_t>> xs) {
    Acc<Vector<int32_t>> y = xs;
    for (int i = 0; i < kDepth; ++i)
      y = map([](Exp<int32_t> v) { return v + 1; }, y);
    return y;
  };
  auto compiled = strata::compile(interp(), chain);
  strata::Array r = compiled(std::vector<int32_t>{0, 5});
  EXPECT_EQ(values_of<int32_t>(r), (std::vector<int32_t>{kDepth, kDepth + 5}));
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RecordProperty("seconds", std::to_string(seconds));
  std::printf("10000 nested maps: traced, checked, compiled and run in %.3f s\n", seconds);
}

TEST(FrontendDeep, SharingKeepsDoublingChainsLinear) {
  // y = y + y, ten thousand times: 2^10000 operations without sharing.
  auto chain = [](Acc<Vector<int32_t>> xs) {
    Acc<Vector<int32_t>> y = xs;
    for (int i = 0; i < kDepth; ++i)
      y = zipWith([](auto a, auto b) { return a + b; }, y, y);
    return y;
  };
  auto p = strata::fe::program(chain);
  size_t nodes = p->nodes.size();
  EXPECT_LT(nodes, size_t(20 * kDepth)); // linear in the chain
  strata::Array r = strata::run(interp(), chain, std::vector<int32_t>{1});
  // 2^10000 wraps to 0 in i32 (integer arithmetic wraps).
  EXPECT_EQ(values_of<int32_t>(r), (std::vector<int32_t>{0}));
}

TEST(FrontendDeep, TenThousandNestedScalarOperations) {
  auto chain = [](Acc<Vector<int64_t>> xs) {
    return map(
        [](Exp<int64_t> v) {
          Exp<int64_t> s = v;
          for (int i = 0; i < kDepth; ++i)
            s = s * 1 + 1;
          return s;
        },
        xs);
  };
  strata::Array r = strata::run(interp(), chain, std::vector<int64_t>{3});
  EXPECT_EQ(values_of<int64_t>(r), (std::vector<int64_t>{kDepth + 3}));
}

// ----------------------------------------------------- inputs and compiling

TEST(FrontendRun, CompileOnceRunsAThousandTimesWithoutCompiling) {
  auto dotp = [](Acc<Vector<double>> xs, Acc<Vector<double>> ys) {
    return fold([](auto a, auto b) { return a + b; }, 0.0,
                zipWith([](auto x, auto y) { return x * y; }, xs, ys));
  };
  uint64_t before = compile_count();
  auto f = strata::compile(interp(), dotp);
  EXPECT_EQ(compile_count(), before + 1);
  for (int i = 0; i < 1000; ++i) {
    strata::Array r = f(std::vector<double>{double(i), 1}, std::vector<double>{2, 3});
    ASSERT_EQ(values_of<double>(r), std::vector<double>{2.0 * i + 3});
  }
  EXPECT_EQ(compile_count(), before + 1);
}

TEST(FrontendRun, HostInputs) {
  auto sum = [](Acc<Vector<float>> xs) {
    return fold([](auto a, auto b) { return a + b; }, 0.0f, xs);
  };
  std::vector<float> v{1, 2, 3};
  EXPECT_EQ(values_of<float>(strata::run(interp(), sum, v)), std::vector<float>{6});
  EXPECT_EQ(values_of<float>(strata::run(interp(), sum, std::span<const float>(v).subspan(1))),
            std::vector<float>{5});
  strata::Array a = array_of<float>({4, 5});
  EXPECT_EQ(values_of<float>(strata::run(interp(), sum, a)), std::vector<float>{9});
  // A strata::Array given to use() is shared, not copied.
  auto used = use<Vector<float>>(a);
  const auto& lit = std::get<ac::Use>(used.node()->node).value;
  EXPECT_EQ(lit.leaf(0).data(), a.leaf(0).data());
  EXPECT_EQ(
      values_of<float>(strata::run(interp(), map([](Exp<float> x) { return x * 2.0f; }, used))),
      (std::vector<float>{8, 10}));
  auto m = use(std::span<const float>(v.data(), 2), std::array<int64_t, 2>{1, 2});
  EXPECT_EQ(strata::print_acc(*m.node()), "(use (array f32 (1 2) 1 2))");
  // Mistyped inputs are errors naming the input.
  try {
    strata::run(interp(), sum, array_of<double>({1.0}));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("input 0: expected an array of type (array f32 1)"),
              std::string::npos)
        << e.what();
  }
}

TEST(FrontendRun, LargeStackHelperReturnsValuesAndExceptions) {
  EXPECT_EQ(strata::with_large_stack([] { return 42; }), 42);
  EXPECT_THROW(strata::with_large_stack([]() -> int { throw std::runtime_error("x"); }),
               std::runtime_error);
}

} // namespace
