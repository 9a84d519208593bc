// The conformance suite: the same programs, inputs and expectations on every
// registered engine (oracle/registry.h), fused and unfused, cuda included; an
// engine this machine cannot run is skipped with its reason (the interpreter
// once: it has no fusion). Two kinds of expectation:
// - Conformance (every engine, the interpreter too): values computed by hand
//   and the examples' outputs computed with NumPy (examples/make_data.py).
// - AgreesWithOracle (every engine but the interpreter): the differential
//   check (oracle/differential.h): every output element bitwise the
//   interpreter's replaying the engine's declared order, every error the same
//   kind and headline, two runs bitwise the same.
// What only one engine has (its caches, generated code, buffers, scheduling)
// stays in that engine's tests; every run-time error class on every engine
// is tests/runtime_errors_engines_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#if STRATA_HAVE_TBB
#include <tbb/global_control.h>
#endif

#include "core/npy.h"
#include "oracle/compare.h"
#include "oracle/differential.h"
#include "oracle/registry.h"
#include "tests/cli_util.h"
#include "tests/engine_suite.h"
#include "tests/fusion_programs.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {
namespace fs = std::filesystem;

// A row long enough for the chunked paths of fold and scan in options()'s
// order: 10^5 in the optimised build, 10^3 under the sanitizers (whose
// interpreter takes minutes to replay 10^5-element rows).
constexpr int64_t kLongRow = kUnderSanitizers ? 1000 : 100000;
const std::string kLong = std::to_string(kLongRow);

std::vector<Array> example_inputs(const Program& p, const fs::path& program) {
  fs::path dir = fs::path(program).replace_extension("");
  std::vector<Array> inputs;
  for (const Param& param : p.params)
    inputs.push_back(read_npy((dir / (param.name + ".npy")).string()));
  return inputs;
}

// ------------------------------------------------------------ Conformance

class Conformance : public EngineSuite {};

// The pinned scalar semantics (docs/language.md), computed by hand.
TEST_P(Conformance, PinnedScalarSemantics) {
  Program p = parse_and_check("(program () (atuple"
                              "  (unit (+ 127i8 1i8))"          // wraps to -128
                              "  (unit (quot -128i8 -1i8))"     // MIN / -1 wraps to MIN
                              "  (unit (mod -7i32 2i32))"       // floor: 1
                              "  (unit (div -7i32 2i32))"       // -4
                              "  (unit (cast i32 nanf32))"      // 0
                              "  (unit (cast u8 300.5))"        // saturates at 255
                              "  (unit (cast i16 -1e9))"        // saturates at -32768
                              "  (unit (max nanf64 2.0))"       // fmax: 2
                              "  (unit (shl 1i32 33i32))"       // shift modulo 32: 2
                              "  (unit (clz 0u16))"             // 16
                              "  (unit (round -2.5))"           // half away from zero: -3
                              "  (unit (cast bool nanf32))))"); // true
  std::vector<Array> r = run(p, {});
  ASSERT_EQ(r.size(), 12u);
  EXPECT_EQ(r[0].leaf_data<int8_t>(0)[0], -128);
  EXPECT_EQ(r[1].leaf_data<int8_t>(0)[0], -128);
  EXPECT_EQ(r[2].leaf_data<int32_t>(0)[0], 1);
  EXPECT_EQ(r[3].leaf_data<int32_t>(0)[0], -4);
  EXPECT_EQ(r[4].leaf_data<int32_t>(0)[0], 0);
  EXPECT_EQ(r[5].leaf_data<uint8_t>(0)[0], 255);
  EXPECT_EQ(r[6].leaf_data<int16_t>(0)[0], -32768);
  EXPECT_EQ(r[7].leaf_data<double>(0)[0], 2.0);
  EXPECT_EQ(r[8].leaf_data<int32_t>(0)[0], 2);
  EXPECT_EQ(r[9].leaf_data<uint16_t>(0)[0], 16);
  EXPECT_EQ(r[10].leaf_data<double>(0)[0], -3.0);
  EXPECT_EQ(r[11].leaf_data<bool>(0)[0], true);
}

// Every NaN a program computes is the canonical quiet NaN (docs/language.md,
// "NaN"), whatever made it and on every engine and tier: x86 makes
// 0xffc00000 at run time where constant folding makes 0x7fc00000, and
// `neg` flips the sign. The constant array lets the jit's optimised tier
// fold what its quick tier computes.
TEST_P(Conformance, EveryNaNIsTheCanonicalQuietNaN) {
  Program p = parse_and_check(
      "(program ((xs (array f32 1))) (atuple"
      "  (map (lambda (x) (/ x 0f32)) xs)"                   // 0/0
      "  (map (lambda (x) (neg (- x x))) xs)"                // inf-inf, negated
      "  (map (lambda (x) (cast f64 (sqrt (- 0f32 x)))) xs)" // sqrt of a negative
      "  (map (lambda (x) (* 0.0 (cast f64 x))) (use (array f32 (2) inff32 -inff32)))"
      "  (fold + 0f32 (use (array f32 (3) inff32 1f32 -inff32)))" // inf + -inf
      "  (scanl1 (lambda (a b) (- b a)) (use (array f64 (3) inf inf 1.0)))"
      // a long row: the engines' native scans and folds of float +
      "  (scanl1 + (generate (ix 70000) (lambda (i) (if (== (proj 0 i) 0) inff32 -inff32))))"
      "  (fold * 1.0 (generate (ix 70000) (lambda (i) (if (== (proj 0 i) 9) inf 0.0))))))");
  const float nan32 = std::numeric_limits<float>::quiet_NaN();
  const double nan64 = std::numeric_limits<double>::quiet_NaN();
  const float inf32 = std::numeric_limits<float>::infinity();
  const double inf64 = std::numeric_limits<double>::infinity();
  std::vector<Array> r = run(p, {array_of<float>({0.0f, -inf32, 1.0f})});
  ASSERT_EQ(r.size(), 8u);
  EXPECT_EQ(compare_bitwise(array_of<float>({nan32, -inf32, inf32}), r[0]), std::nullopt);
  EXPECT_EQ(compare_bitwise(array_of<float>({-0.0f, nan32, -0.0f}), r[1]), std::nullopt);
  EXPECT_EQ(compare_bitwise(array_of<double>({0.0, inf64, nan64}), r[2]), std::nullopt);
  EXPECT_EQ(compare_bitwise(array_of<double>({nan64, nan64}), r[3]), std::nullopt);
  EXPECT_EQ(compare_bitwise(scalar_array<float>(nan32), r[4]), std::nullopt);
  EXPECT_EQ(compare_bitwise(array_of<double>({inf64, nan64, nan64}), r[5]), std::nullopt);
  std::vector<float> scan(70000, nan32);
  scan[0] = inf32;
  EXPECT_EQ(compare_bitwise(array_of<float>(scan), r[6]), std::nullopt);
  EXPECT_EQ(compare_bitwise(scalar_array<double>(nan64), r[7]), std::nullopt);
}

// One small program per collective form, its result computed by hand.
TEST_P(Conformance, CollectivesComputedByHand) {
  struct Case {
    const char* body;
    Array expected;
  };
  const std::vector<Case> cases = {
      // rows [1 2 3] and [4 5 6], from 10
      {"(fold (lambda ((a i32) (b i32)) (+ a b)) 10i32 (use (array i32 (2 3) 1 2 3 4 5 6)))",
       array_of<int32_t>({16, 25})},
      // n + 1 prefix sums
      {"(scanl (lambda ((a i32) (b i32)) (+ a b)) 0i32 (use (array i32 (4) 1 2 3 4)))",
       array_of<int32_t>({0, 1, 3, 6, 10})},
      {"(scanr1 (lambda ((a i32) (b i32)) (- a b)) (use (array i32 (3) 10 4 1)))",
       array_of<int32_t>({7, 3, 1})}, // 10 - (4 - 1), 4 - 1, 1
      // element i to i mod 3, combined by +: 1+4+7, 2+5, 3+6
      {"(permute (lambda ((a i32) (b i32)) (+ a b)) (fill (ix 3) 0i32) (lambda ((i (ix 1))) (ix "
       "(mod (proj 0 i) 3))) (use (array i32 (7) 1 2 3 4 5 6 7)))",
       array_of<int32_t>({12, 7, 9})},
      {"(backpermute (ix 4) (lambda ((i (ix 1))) (ix (- 3 (proj 0 i)))) (use (array f64 (4) 1.5 "
       "2.5 3.5 4.5)))",
       array_of<double>({4.5, 3.5, 2.5, 1.5})},
      // segments [3 9], [], [2 7 1 5]
      {"(foldseg (lambda ((a i32) (b i32)) (max a b)) -100i32 (use (array i32 (6) 3 9 2 7 1 5)) "
       "(use (array i64 (3) 2 0 4)))",
       array_of<int32_t>({9, -100, 7})},
      // left + right neighbour, the edges clamped
      {"(stencil (3) clamp (lambda ((nb (window i32 1))) (+ (at nb -1) (at nb 1))) (use (array "
       "i32 (4) 1 2 3 4)))",
       array_of<int32_t>({3, 4, 6, 7})},
      // tripled while the largest is below 40: [1 2] [3 6] [9 18] [27 54]
      {"(awhile (lambda ((s (array i32 1))) (map (lambda ((m i32)) (< m 40i32)) (fold1 (lambda "
       "((a i32) (b i32)) (max a b)) s))) (lambda ((s (array i32 1))) (map (lambda ((x i32)) (* "
       "x 3i32)) s)) (use (array i32 (2) 1 2)))",
       array_of<int32_t>({27, 54})},
  };
  for (const Case& c : cases) {
    std::vector<Array> r = run(parse_and_check(std::string("(program () ") + c.body + ")"), {});
    ASSERT_EQ(r.size(), 1u) << c.body;
    EXPECT_EQ(compare_bitwise(c.expected, r[0]), std::nullopt) << c.body;
  }
}

// Functions, inferred lambda types and every everyday form (docs/language.md,
// Functions and Everyday forms), each result computed by hand. The engines
// run the checker's expansions, so this pins the expansions on every engine.
TEST_P(Conformance, FunctionsAndEverydayFormsComputedByHand) {
  const std::string defs =
      "(define (sq x) (* x x))\n"
      "(define (axpy (a i32) x y) (+ (* a x) y))\n"
      "(adefine (scale (xs (array i32 1)) (k i32)) (map (lambda (x) (axpy k x 0i32)) xs))\n";
  const std::string m = "(use (array i32 (2 3) 1 2 3 4 5 6))";
  const std::string v = "(use (array i32 (4) 3 -1 4 1))";
  struct Case {
    std::string body;
    Array expected;
  };
  const std::vector<Case> cases = {
      {"(map sq " + v + ")", array_of<int32_t>({9, 1, 16, 1})},
      {"(scale " + v + " 3i32)", array_of<int32_t>({9, -3, 12, 3})},
      {"(fold + 0i32 " + m + ")", array_of<int32_t>({6, 15})},
      {"(zipwith (lambda (a b c) (axpy a b c)) " + v + " " + v + " (use (array i32 (3) 1 1 1)))",
       array_of<int32_t>({10, 2, 17})},
      {"(++ " + m + " " + m + ")", array_of<int32_t>({1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6}, {2, 6})},
      {"(take 2 " + m + ")", array_of<int32_t>({1, 2, 4, 5}, {2, 2})},
      {"(take 9 " + v + ")", array_of<int32_t>({3, -1, 4, 1})},
      {"(drop 2 " + m + ")", array_of<int32_t>({3, 6}, {2, 1})},
      {"(drop -1 " + v + ")", array_of<int32_t>({3, -1, 4, 1})},
      {"(init " + v + ")", array_of<int32_t>({3, -1, 4})},
      {"(tail " + m + ")", array_of<int32_t>({2, 3, 5, 6}, {2, 2})},
      {"(tail (use (array i32 (0))))", array_of<int32_t>({}, {0})},
      {"(reverse " + m + ")", array_of<int32_t>({3, 2, 1, 6, 5, 4}, {2, 3})},
      {"(transpose " + m + ")", array_of<int32_t>({1, 4, 2, 5, 3, 6}, {3, 2})},
      {"(iota 4)", array_of<int64_t>({0, 1, 2, 3})},
      {"(enumFromN (ix 2 2) 5i32)", array_of<int32_t>({5, 6, 7, 8}, {2, 2})},
      {"(enumFromStepN (ix 3) 1.5 -0.5)", array_of<double>({1.5, 1.0, 0.5})},
      {"(postscanl + 10i32 " + v + ")", array_of<int32_t>({13, 12, 16, 17})},
      {"(postscanr + 10i32 " + v + ")", array_of<int32_t>({17, 14, 15, 11})},
      {"(sum " + m + ")", scalar_array<int32_t>(21)},
      {"(product " + v + ")", scalar_array<int32_t>(-12)},
      {"(maximum " + v + ")", scalar_array<int32_t>(4)},
      {"(minimum " + m + ")", scalar_array<int32_t>(1)},
      {"(and (use (array bool (2) true false)))", scalar_array<bool>(false)},
      {"(or (use (array bool (2) true false)))", scalar_array<bool>(true)},
      {"(any (lambda (x) (< x 0i32)) " + v + ")", scalar_array<bool>(true)},
      {"(all (lambda (x) (< x 0i32)) " + v + ")", scalar_array<bool>(false)},
      {"(gather (use (array i64 (3) 3 0 0)) " + v + ")", array_of<int32_t>({1, 3, 3})},
      // later sources win: index 0 gets 30 (then 40), index 2 gets 20
      {"(scatter (use (array i64 (4) 0 2 0 0)) (fill (ix 3) 0i32) (use (array i32 (4) 10 20 30 "
       "40)))",
       array_of<int32_t>({40, 0, 20})},
      // targets in any order, each source once
      {"(scatter (use (array i64 (3) 2 0 1)) (fill (ix 3) 0i32) (use (array i32 (3) 10 20 30)))",
       array_of<int32_t>({20, 30, 10})},
      // data-dependent lengths: the kept elements and each row's count
      {"(aproj 0 (filter (lambda (x) (> x 0i32)) " + v + "))", array_of<int32_t>({3, 4, 1})},
      {"(aproj 1 (compact (use (array bool (2 3) true false true false false true)) " + m + "))",
       array_of<int64_t>({2, 1})},
      {"(aproj 0 (compact (use (array bool (2 3) true false true false false true)) " + m + "))",
       array_of<int32_t>({1, 3, 6})},
      // segments [1 2] [] [3] of each row
      {"(scanl1seg + " + m + " (use (array i64 (3) 2 0 1)))",
       array_of<int32_t>({1, 3, 3, 4, 9, 6}, {2, 3})},
      {"(scanr1seg - " + m + " (use (array i64 (3) 2 0 1)))",
       array_of<int32_t>({-1, 2, 3, -1, 5, 6}, {2, 3})},
      {"(scanlseg + 10i32 " + m + " (use (array i64 (3) 2 0 1)))",
       array_of<int32_t>({10, 11, 13, 10, 10, 13, 10, 14, 19, 10, 10, 16}, {2, 6})},
      {"(scanrseg + 10i32 " + m + " (use (array i64 (3) 2 0 1)))",
       array_of<int32_t>({13, 12, 10, 10, 13, 10, 19, 15, 10, 10, 16, 10}, {2, 6})},
      // stencil2: a mirrored neighbour of m plus 100 times a constant-bounded one of the other
      {"(stencil2 (3 3) mirror (1 3) (constant -1i32) (lambda (a b) (+ (at a -1 1) (* 100i32 (at "
       "b 0 -1)))) " +
           m + " (use (array i32 (1 3) 10 20 30)))",
       array_of<int32_t>({-95, 1006, 2005}, {1, 3})},
      // 0 + 1 + 2 + 3 + 4, and a let-bound function called twice
      {"(unit (for 5 0 (lambda (i acc) (+ acc i))))", scalar_array<int64_t>(10)},
      {"(unit (let ((k 3) (f (lambda (a) (* a k)))) (f (f 2))))", scalar_array<int64_t>(18)},
      // untyped awhile and while parameters
      {"(awhile (lambda (s) (map (lambda (x) (< x 40i32)) (maximum s))) (lambda (s) (scale s "
       "3i32)) (use (array i32 (2) 1 2)))",
       array_of<int32_t>({27, 54})},
      {"(unit (while (lambda (s) (< s 100)) (lambda (s) (sq s)) 2))", scalar_array<int64_t>(256)},
  };
  // stencil2 over one array reads as stencil does, under every boundary
  for (const char* b : {"clamp", "mirror", "wrap", "(constant 7i32)"}) {
    std::string f = "(+ (at a -1 2) (* 10i32 (at a 1 -2)))";
    std::string twin = "(atuple (stencil2 (3 5) " + std::string(b) + " (1 1) clamp (lambda (a z) " +
                       f + ") " + m + " " + m + ") (stencil (3 5) " + b + " (lambda (a) " + f +
                       ") " + m + "))";
    std::vector<Array> r = run(parse_and_check("(program () " + twin + ")"), {});
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(compare_bitwise(r[1], r[0]), std::nullopt) << b;
  }
  for (const Case& c : cases) {
    std::vector<Array> r = run(parse_and_check(defs + "(program () " + c.body + ")"), {});
    ASSERT_EQ(r.size(), 1u) << c.body;
    EXPECT_EQ(compare_bitwise(c.expected, r[0]), std::nullopt) << c.body;
  }
}

// The examples' outputs, computed with NumPy: floats within the tolerance of
// compare_arrays (NumPy's own operation order and math library), the rest
// exactly.
TEST_P(Conformance, ExamplesMatchNumPy) {
  for (const fs::path& program : example_programs()) {
    SCOPED_TRACE(program.filename().string());
    Program p = parse_program(slurp(program), program.string());
    check_program(p);
    std::vector<Array> got = run(p, example_inputs(p, program));
    fs::path dir = fs::path(program).replace_extension("");
    std::vector<fs::path> expected;
    if (fs::exists(dir / "expected.npy")) expected.push_back(dir / "expected.npy");
    for (int i = 0; fs::exists(dir / ("expected." + std::to_string(i) + ".npy")); ++i)
      expected.push_back(dir / ("expected." + std::to_string(i) + ".npy"));
    ASSERT_EQ(got.size(), expected.size());
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_EQ(compare_arrays(read_npy(expected[i].string()), got[i]), std::nullopt)
          << "result " << i;
  }
}

// One compile runs inputs of any size, around the engines' batch and chunk
// sizes; values computed by hand.
TEST_P(Conformance, CompiledOnceRunsManyInputs) {
  Program p =
      parse_and_check("(program ((xs (array f32 1))) (map (lambda ((x f32)) (* x 2f32)) xs))");
  auto exe = engine_->compile(p, options());
  for (int n : {0, 1, 1023, 1024, 1025, 5 * 1024 + 3, 70001}) {
    std::vector<float> v(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
      v[size_t(i)] = float(i);
    Array out = exe->run({array_of<float>(v, {n})})[0];
    ASSERT_EQ(out.size(), n);
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(out.leaf_data<float>(0)[i], 2.0f * float(i)) << "n " << n << ", element " << i;
  }
}

#if STRATA_HAVE_TBB // the engines' worker threads are oneTBB's
// The same results, bitwise, whatever the number of worker threads.
TEST_P(Conformance, BitwiseIdenticalForAnyThreadCount) {
  if (GetParam().engine == "interp") GTEST_SKIP() << "the interpreter runs on one thread";
  Program p = parse_and_check(
      "(program () (atuple"
      "  (fold (lambda ((a f64) (b f64)) (+ a b)) 0.0 (generate (ix 3 200000) (lambda ((i (ix 2)))"
      "    (sin (cast f64 (+ (proj 1 i) (proj 0 i)))))))"
      "  (scanl1 (lambda ((a f32) (b f32)) (+ a b)) (generate (ix 150000) (lambda ((i (ix 1)))"
      "    (cos (cast f32 (proj 0 i))))))"
      "  (permute (lambda ((a f64) (b f64)) (+ a b)) (fill (ix 16) 0.0) (lambda ((i (ix 1))) (ix "
      "(mod (proj 0 i) 16)))"
      "    (generate (ix 50000) (lambda ((i (ix 1))) (sqrt (cast f64 (proj 0 i))))))))");
  std::vector<Array> reference;
  for (int threads : {1, 2, 8}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, size_t(threads));
    for (int round = 0; round < 2; ++round) {
      std::vector<Array> got = run(p, {});
      if (reference.empty()) reference = got;
      ASSERT_EQ(got.size(), reference.size());
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_EQ(compare_bitwise(reference[i], got[i]), std::nullopt)
            << threads << " threads, result " << i;
    }
  }
}
#endif

INSTANTIATE_TEST_SUITE_P(EveryEngine, Conformance, ::testing::ValuesIn(targets(true)), target_name);

// ------------------------------------------------------- AgreesWithOracle

class AgreesWithOracle : public EngineSuite {};

TEST_P(AgreesWithOracle, EveryExample) {
  int count = 0;
  for (const fs::path& program : example_programs()) {
    Program p = parse_program(slurp(program), program.string());
    check_program(p);
    expect_agrees(p, example_inputs(p, program), program.filename().string());
    ++count;
  }
  EXPECT_GE(count, 16);
}

// Every form, alone and in fusable chains (tests/fusion_programs.h).
TEST_P(AgreesWithOracle, EveryForm) {
  for (const FusionCase& c : fusion_cases())
    expect_agrees(parse_and_check(fusion_program(c)), fusion_inputs(), c.name);
}

// Every kind of run-time error, past the first batch or chunk, and extreme
// indices whose range checks must not overflow: the interpreter's kind and
// headline.
TEST_P(AgreesWithOracle, FailingPrograms) {
  Array xs = array_of<int64_t>({1, 2, 3});
  for (const char* body : failing_bodies())
    expect_agrees(parse_and_check(std::string("(program ((xs (array i64 1))) ") + body + ")"), {xs},
                  body);
}

// Long rows take the chunked paths of fold and scan; integer data.
TEST_P(AgreesWithOracle, LongRowsFoldAndScan) {
  const std::string gen = "(generate (ix 2 " + kLong +
                          ") (lambda ((i (ix 2))) (- (mod (* (proj 1 i) 7919) 1000) 500)))";
  for (std::string op :
       {"fold (lambda ((a i64) (b i64)) (+ a b)) 5", "fold1 (lambda ((a i64) (b i64)) (max a b))",
        "scanl (lambda ((a i64) (b i64)) (+ a b)) 3", "scanl1 (lambda ((a i64) (b i64)) (+ a b))",
        "scanr (lambda ((a i64) (b i64)) (min a b)) 0", "scanr1 (lambda ((a i64) (b i64)) (+ a b))",
        "scanl' (lambda ((a i64) (b i64)) (+ a b)) 1"})
    expect_agrees(parse_and_check("(program () (" + op + " " + gen + "))"), {}, op);
}

// A non-commutative associative operator (2x2 matrix product as a tuple,
// integer wrapping) over long rows: the chunks and lanes keep the declared
// order of the operands.
TEST_P(AgreesWithOracle, LongRowsKeepOperandOrder) {
  const char* mul = "(lambda ((a (tuple i64 i64 i64 i64)) (b (tuple i64 i64 i64 i64)))"
                    "  (tuple (+ (* (proj 0 a) (proj 0 b)) (* (proj 1 a) (proj 2 b)))"
                    "         (+ (* (proj 0 a) (proj 1 b)) (* (proj 1 a) (proj 3 b)))"
                    "         (+ (* (proj 2 a) (proj 0 b)) (* (proj 3 a) (proj 2 b)))"
                    "         (+ (* (proj 2 a) (proj 1 b)) (* (proj 3 a) (proj 3 b)))))";
  const std::string gen =
      "(generate (ix " + std::to_string(kLongRow * 7 / 10) +
      ") (lambda ((i (ix 1))) (let ((k (mod (proj 0 i) 3)))"
      "  (if (== k 0) (tuple 1 1 0 1) (if (== k 1) (tuple 1 0 1 1) (tuple 0 1 1 0))))))";
  for (const char* op : {"fold1", "scanl1", "scanr1"})
    expect_agrees(parse_and_check(std::string("(program () (") + op + " " + mul + " " + gen + "))"),
                  {}, op);
}

// Float sums in the declared order, short rows and long, empty and single.
TEST_P(AgreesWithOracle, FloatSums) {
  const std::string long_rows = "(ix 2 " + std::to_string(kLongRow + 3) + ")";
  for (const std::string& shape : {std::string("(ix 3 1000)"), long_rows, std::string("(ix 0 5)"),
                                   std::string("(ix 4 0)"), std::string("(ix 1 1)")}) {
    for (const char* fold : {"fold (lambda ((a f32) (b f32)) (+ a b)) 0.5f32",
                             "fold1 (lambda ((a f32) (b f32)) (+ b a))",
                             "fold (lambda ((a f64) (b f64)) (+ a b)) -1.0"}) {
      std::string t = std::string(fold).find("f64") != std::string::npos ? "f64" : "f32";
      std::string program = std::string("(program () (") + fold + " (generate " + shape +
                            " (lambda ((i (ix 2))) (cast " + t +
                            " (sin (cast f64 (+ (* (proj 0 i) 7) (proj 1 i)))))))))";
      expect_agrees(parse_and_check(program), {}, program); // fold1 of an empty row: the error
    }
  }
}

// Stencils near the edges and inside: every boundary, windows of several
// radii, shapes smaller than, equal to and larger than the window, ranks 1
// to 3.
TEST_P(AgreesWithOracle, StencilEdgesAndInteriors) {
  struct Case {
    std::string window, at_offsets, shape;
    int rank;
  };
  const std::vector<Case> cases = {
      {"5", "(at nb -2) (at nb -1) (at nb 0) (at nb 2)", "(ix 1)", 1},
      {"5", "(at nb -2) (at nb -1) (at nb 0) (at nb 2)", "(ix 4)", 1},
      {"5", "(at nb -2) (at nb -1) (at nb 0) (at nb 2)", "(ix 37)", 1},
      {"3 3", "(at nb -1 -1) (at nb 0 1) (at nb 1 0) (at nb 0 0)", "(ix 2 3)", 2},
      {"3 3", "(at nb -1 -1) (at nb 0 1) (at nb 1 0) (at nb 0 0)", "(ix 9 23)", 2},
      {"3 5", "(at nb 1 -2) (at nb -1 2) (at nb 0 -1)", "(ix 3 5)", 2},
      {"3 5", "(at nb 1 -2) (at nb -1 2) (at nb 0 -1)", "(ix 7 40)", 2},
      {"1 3 3", "(at nb 0 -1 1) (at nb 0 1 -1) (at nb 0 0 0)", "(ix 2 6 19)", 3},
  };
  for (const std::string boundary : {"clamp", "mirror", "wrap", "(constant -7i32)"})
    for (const Case& c : cases) {
      std::string ix = "(let ((i (proj 0 p))) i)";
      if (c.rank > 1) ix = "(+ (* (proj 0 p) 1000) (proj 1 p))";
      if (c.rank > 2) ix = "(+ (* (proj 0 p) 1000000) (+ (* (proj 1 p) 1000) (proj 2 p)))";
      std::string sum = "0i32";
      int k = 1;
      const std::string& reads = c.at_offsets;
      for (size_t at = reads.find("(at"); at != std::string::npos; at = reads.find("(at", at + 1)) {
        size_t close = reads.find(')', at);
        sum = "(+ " + sum + " (* " + std::to_string(k++) + "i32 " +
              reads.substr(at, close - at + 1) + "))";
      }
      std::string program = "(program () (stencil (" + c.window + ") " + boundary +
                            " (lambda ((nb (window i32 " + std::to_string(c.rank) + "))) " + sum +
                            ") (generate " + c.shape + " (lambda ((p (ix " +
                            std::to_string(c.rank) + "))) (cast i32 " + ix + ")))))";
      expect_agrees(parse_and_check(program), {}, boundary + " " + c.shape + " " + c.window);
    }
}

// A failing stencil element is the first in row-major order, wherever the
// failing elements are (left edge, interior, right edge).
TEST_P(AgreesWithOracle, StencilErrorsAreTheFirstInRowMajorOrder) {
  const std::vector<std::vector<std::pair<int, int>>> zeros = {
      {{2, 0}},           {{2, 20}},         {{2, 39}},         {{2, 0}, {2, 5}},
      {{2, 20}, {2, 39}}, {{1, 20}, {2, 0}}, {{0, 0}, {4, 39}}, {{3, 1}, {3, 38}}};
  for (const auto& at : zeros) {
    std::string zero = "false";
    for (auto [i, j] : at)
      zero = "(or " + zero + " (and (== (proj 0 p) " + std::to_string(i) + ") (== (proj 1 p) " +
             std::to_string(j) + ")))";
    std::string program =
        "(program () (stencil (3 3) clamp (lambda ((nb (window i32 2))) (quot (+ 1000i32 (at nb "
        "0 1)) (at nb 0 0))) (generate (ix 5 40) (lambda ((p (ix 2))) (if " +
        zero + " 0i32 (cast i32 (+ (* (proj 0 p) 100) (+ (proj 1 p) 1))))))))";
    expect_agrees(parse_and_check(program), {}, program);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryEngine, AgreesWithOracle, ::testing::ValuesIn(targets(false)),
                         target_name);
// The interpreter-only build has no engine to compare with the oracle.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(AgreesWithOracle);

} // namespace
} // namespace strata::test
