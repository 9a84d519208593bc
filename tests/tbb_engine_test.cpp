// The tbb engine against the interpreter, fused and unfused: every example,
// every program of tests/fusion_programs.h, the long-row paths of fold and
// scan, errors of the same kind at the same element, and bitwise identical
// results for 1, 2 and 8 threads.
#include <gtest/gtest.h>

#include <filesystem>
#include <tbb/global_control.h>

#include "core/npy.h"
#include "oracle/compare.h"
#include "oracle/differential.h"
#include "oracle/registry.h"
#include "tbb/batch.h"
#include "tbb/engine.h"
#include "tests/cli_util.h"
#include "tests/fusion_programs.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {
namespace fs = std::filesystem;

const Engine& tbb_engine() {
  static auto engine = make_tbb_engine();
  return *engine;
}

std::vector<Array> run_tbb(const Program& p, const std::vector<Array>& inputs, bool fused) {
  return tbb_engine().compile(p, CompileOptions{fused, true})->run(inputs);
}

// Exact agreement (results or error kind and message) with the interpreter
// replaying the association order tbb runs by default (blocked(): the same as
// the canonical order on rows shorter than its thresholds, and for integer +
// and the like on any row).
void expect_same(const Program& p, const std::vector<Array>& inputs, const std::string& what) {
  std::vector<Array> oracle;
  std::optional<std::string> oracle_error;
  try {
    oracle = interpret(p, inputs, InterpreterOptions{.order = ReductionOrder::blocked()});
  } catch (const Error& e) {
    oracle_error = std::string(error_kind_name(e.kind()));
  }
  for (bool fused : {true, false}) {
    SCOPED_TRACE(what + (fused ? " fused" : " unfused"));
    try {
      std::vector<Array> got = run_tbb(p, inputs, fused);
      ASSERT_FALSE(oracle_error) << "the interpreter failed with " << *oracle_error
                                 << ", tbb did not";
      ASSERT_EQ(got.size(), oracle.size());
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_TRUE(identical(got[i], oracle[i]))
            << "result " << i << ": "
            << compare_arrays(oracle[i], got[i]).value_or("differs bitwise");
    } catch (const Error& e) {
      ASSERT_TRUE(oracle_error) << "only tbb failed: " << e.what();
      EXPECT_EQ(std::string(error_kind_name(e.kind())), *oracle_error) << e.what();
    }
  }
}

TEST(TbbEngine, AgreesWithTheInterpreterOnEveryExample) {
  int count = 0;
  for (const auto& entry : fs::directory_iterator(source_path("examples"))) {
    if (entry.path().extension() != ".strata") continue;
    Program p = parse_program(slurp(entry.path()), entry.path().string());
    check_program(p);
    fs::path dir = fs::path(entry.path()).replace_extension("");
    std::vector<Array> inputs;
    for (const Param& param : p.params)
      inputs.push_back(read_npy((dir / (param.name + ".npy")).string()));
    expect_same(p, inputs, entry.path().filename().string());
    ++count;
  }
  EXPECT_GE(count, 16);
}

TEST(TbbEngine, AgreesWithTheInterpreterOnEveryForm) {
  for (const FusionCase& c : fusion_cases())
    expect_same(parse_and_check(fusion_program(c)), fusion_inputs(), c.name);
}

TEST(TbbEngine, ErrorsHaveTheInterpretersKind) {
  Array xs = array_of<int64_t>({1, 2, 3});
  for (const char* body : failing_bodies()) {
    expect_same(parse_and_check(std::string("(program ((xs (array i64 1))) ") + body + ")"), {xs},
                body);
  }
}

// Big enough for the chunked paths (rows of 100 000 > kLongRow, kLongScan);
// integer data, so every association gives the same bits.
TEST(TbbEngine, LongRowsFoldAndScanExactlyOnIntegers) {
  const char* gen =
      "(generate (ix 2 100000) (lambda ((i (ix 2))) (- (mod (* (proj 1 i) 7919) 1000) 500)))";
  for (std::string op :
       {"fold (lambda ((a i64) (b i64)) (+ a b)) 5", "fold1 (lambda ((a i64) (b i64)) (max a b))",
        "scanl (lambda ((a i64) (b i64)) (+ a b)) 3", "scanl1 (lambda ((a i64) (b i64)) (+ a b))",
        "scanr (lambda ((a i64) (b i64)) (min a b)) 0", "scanr1 (lambda ((a i64) (b i64)) (+ a b))",
        "scanl' (lambda ((a i64) (b i64)) (+ a b)) 1"})
    expect_same(parse_and_check("(program () (" + op + " " + gen + "))"), {}, op);
}

// A non-commutative associative operator (2x2 matrix product as a tuple) over
// long rows: the chunks and lanes must keep the declared order of the
// operands (the blocked order's strided lanes give another product than the
// canonical order: integer wrapping is associative, not commutative here).
TEST(TbbEngine, LongRowsKeepOperandOrder) {
  const char* mul = "(lambda ((a (tuple i64 i64 i64 i64)) (b (tuple i64 i64 i64 i64)))"
                    "  (tuple (+ (* (proj 0 a) (proj 0 b)) (* (proj 1 a) (proj 2 b)))"
                    "         (+ (* (proj 0 a) (proj 1 b)) (* (proj 1 a) (proj 3 b)))"
                    "         (+ (* (proj 2 a) (proj 0 b)) (* (proj 3 a) (proj 2 b)))"
                    "         (+ (* (proj 2 a) (proj 1 b)) (* (proj 3 a) (proj 3 b)))))";
  const char* gen =
      "(generate (ix 70000) (lambda ((i (ix 1))) (let ((k (mod (proj 0 i) 3)))"
      "  (if (== k 0) (tuple 1 1 0 1) (if (== k 1) (tuple 1 0 1 1) (tuple 0 1 1 0))))))";
  expect_same(parse_and_check(std::string("(program () (fold1 ") + mul + " " + gen + "))"), {},
              "fold1 matmul");
  expect_same(parse_and_check(std::string("(program () (scanl1 ") + mul + " " + gen + "))"), {},
              "scanl1 matmul");
}

TEST(TbbEngine, FloatSumsOfLongRowsAreWithinTolerance) {
  Program p = parse_and_check(
      "(program () (fold (lambda ((a f32) (b f32)) (+ a b)) 0f32"
      "  (generate (ix 1000000) (lambda ((i (ix 1))) (/ (cast f32 (mod (proj 0 i) 97)) 7f32)))))");
  Array oracle = interpret(p, {})[0];
  Array got = run_tbb(p, {}, true)[0];
  // Reassociation error of a sum of n positive terms is below n * eps * sum.
  double sum = double(values_of<float>(oracle)[0]);
  EXPECT_NEAR(double(values_of<float>(got)[0]), sum, 1e6 * 6e-8 * sum);
}

TEST(TbbEngine, BitwiseIdenticalForAnyThreadCount) {
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
    for (int run = 0; run < 2; ++run) {
      std::vector<Array> got = run_tbb(p, {}, true);
      if (reference.empty()) reference = got;
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_TRUE(identical(got[i], reference[i])) << threads << " threads, result " << i;
    }
  }
}

TEST(TbbEngine, CompiledOnceRunsManyInputs) {
  Program p =
      parse_and_check("(program ((xs (array f32 1))) (map (lambda ((x f32)) (* x 2f32)) xs))");
  auto exe = tbb_engine().compile(p, CompileOptions{});
  using tbbe::kBatch;
  for (int n : {0, 1, kBatch - 1, kBatch, kBatch + 1, 5 * kBatch + 3}) {
    std::vector<float> v(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
      v[size_t(i)] = float(i);
    Array out = exe->run({array_of<float>(v, {n})})[0];
    ASSERT_EQ(out.size(), n);
    for (int i = 0; i < n; ++i)
      EXPECT_EQ(out.leaf_data<float>(0)[i], 2.0f * float(i));
  }
}

} // namespace
} // namespace strata::test

namespace strata::test {
namespace {

// A program failing in two places: fused, the slice's check runs in the
// kernel that materialises it, after the fold1 kernel, so fused tbb raises
// the later failure; unfused raises the oracle's. The differential check
// accepts exactly that (docs/testing.md), and still rejects a fused run
// whose unfused twin does not raise the oracle's error.
TEST(TbbEngine, FusedMayRaiseTheLaterOfTwoFailures) {
  Program p =
      parse_and_check("(program () (atuple"
                      "  (slice (generate (ix 1 0 1) (lambda ((i (ix 3))) 1i16)) (spec all 0 all))"
                      "  (fold1 (lambda ((a i32) (b i32)) (max a b))"
                      "         (generate (ix 1 3 0) (lambda ((i (ix 3))) 2i32)))))");
  Outcome oracle = run_engine(*find_engine("interp"), p, {}, CompileOptions{});
  Outcome fused = run_engine(tbb_engine(), p, {}, CompileOptions{true, true});
  Outcome unfused = run_engine(tbb_engine(), p, {}, CompileOptions{false, true});
  ASSERT_EQ(oracle.error, ErrorKind::Bounds) << oracle.message;
  EXPECT_EQ(unfused.error, ErrorKind::Bounds) << unfused.message;
  EXPECT_EQ(fused.error, ErrorKind::EmptyReduction) << fused.message;
  for (bool fusion : {true, false})
    EXPECT_TRUE(differential_check(p, {}, tbb_engine(), CompileOptions{fusion, true}).agree);
}

} // namespace
} // namespace strata::test
