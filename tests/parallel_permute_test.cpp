// permute on the CPU engines (tbb, and the jit where built): combining
// functions they recognise (parallel/permute_native.h, shared) on sources
// large enough for per-chunk private accumulators, with `ignore` targets,
// and the sequential cases (few sources, many targets); every result bitwise
// the interpreter's.
#include <gtest/gtest.h>

#include <functional>

#include "core/error.h"
#include "core/ir.h"
#include "parallel/permute_native.h"
#include "tbb/engine.h"
#if STRATA_HAVE_JIT
#include "jit/engine.h"
#endif
#include "tests/test_util.h"

namespace strata::test {
namespace {

using parallel::kMinPermuteChunk;
using parallel::recognise_combine;

const std::vector<const Engine*>& cpu_engines() {
  static auto tbb = make_tbb_engine();
#if STRATA_HAVE_JIT
  static auto jit = make_jit_engine();
  static const std::vector<const Engine*> all = {tbb.get(), jit.get()};
#else
  static const std::vector<const Engine*> all = {tbb.get()};
#endif
  return all;
}

void expect_as_interpreter(const std::string& text) {
  Program p = parse_and_check(text);
  std::vector<Array> oracle = interpret(p, {});
  for (const Engine* engine : cpu_engines())
    for (bool fused : {true, false}) {
      std::vector<Array> got = engine->compile(p, CompileOptions{fused, true})->run({});
      ASSERT_EQ(got.size(), oracle.size());
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_TRUE(identical(got[i], oracle[i]))
            << engine->name() << (fused ? " fused: " : " unfused: ") << text;
    }
}

// (permute COMB DEFAULTS TARGET SOURCE) with `n` sources into `m` targets;
// every 7th source element is ignored.
std::string permute(const std::string& type, const std::string& comb, const std::string& dflt,
                    int64_t n, int64_t m, const std::string& value) {
  return "(program () (permute (lambda ((new " + type + ") (old " + type + ")) " + comb +
         ") (fill (ix " + std::to_string(m) + ") " + dflt +
         ") (lambda ((i (ix 1))) (if (== (mod (proj 0 i) 7) 3) (ignore 1) (ix (mod (* (proj 0 "
         "i) 40503) " +
         std::to_string(m) + ")))) (generate (ix " + std::to_string(n) +
         ") (lambda ((i (ix 1))) (let ((k (proj 0 i))) " + value + ")))))";
}

// 150 000 sources into 256 targets: three chunks of kMinPermuteChunk.
TEST(PermuteNative, RecognisedCombinersInParallelEqualTheInterpreter) {
  static_assert(150000 > 2 * kMinPermuteChunk);
  const char* i64v = "(- (mod (* k 2654435761) 2001) 1000)";
  expect_as_interpreter(permute("i64", "(+ new old)", "5", 150000, 256, i64v));
  expect_as_interpreter(permute("i64", "(+ old new)", "5", 150000, 256, i64v));
  expect_as_interpreter(permute("i64", "(* new old)", "1", 150000, 256, "(- (mod k 5) 2)"));
  expect_as_interpreter(permute("i64", "(min new old)", "0", 150000, 256, i64v));
  expect_as_interpreter(permute("i64", "(max old new)", "0", 150000, 256, i64v));
  expect_as_interpreter(permute("i64", "(bxor new old)", "7", 150000, 256, i64v));
  expect_as_interpreter(permute("i32", "(band new old)", "-1i32", 150000, 256,
                                "(cast i32 (bnot (shl 1 (mod k 31))))"));
  expect_as_interpreter(
      permute("u8", "(bor new old)", "0u8", 150000, 256, "(cast u8 (shl 1 (mod k 8)))"));
  expect_as_interpreter(permute("i8", "(+ new old)", "0i8", 150000, 256, "(cast i8 k)"));
  expect_as_interpreter(permute("bool", "(and new old)", "true", 150000, 256, "(/= (mod k 97) 0)"));
  expect_as_interpreter(permute("bool", "(or old new)", "false", 150000, 256, "(== (mod k 97) 0)"));
  // Projections, on floats and tuples: the last element wins, or the defaults stay.
  expect_as_interpreter(permute("f64", "new", "-1.5", 150000, 1000, "(sqrt (cast f64 k))"));
  expect_as_interpreter(permute("(tuple i32 f32)", "new", "(tuple 0i32 0f32)", 150000, 1000,
                                "(tuple (cast i32 k) (cast f32 k))"));
  expect_as_interpreter(permute("f32", "old", "2f32", 150000, 256, "(cast f32 k)"));
}

// The error of a program that must fail: its kind and headline (core/error.h).
std::string error_of(const std::function<void()>& run) {
  try {
    run();
  } catch (const Error& e) {
    return std::to_string(int(e.kind())) + " " + e.headline(); // what differential tests compare
  }
  return "no error";
}

void expect_error_as_interpreter(const std::string& text) {
  Program p = parse_and_check(text);
  std::string want = error_of([&] { (void)interpret(p, {}); });
  ASSERT_NE(want, "no error") << text;
  for (const Engine* engine : cpu_engines())
    for (bool fused : {true, false})
      EXPECT_EQ(error_of([&] {
                  (void)engine->compile(p, CompileOptions{fused, true})->run({});
                }),
                want)
          << engine->name() << (fused ? " fused: " : " unfused: ") << text;
}

// Failing elements in large sources. The jit computes the source values and
// targets of a recognised operation chunk by chunk, each element's value and
// target together; on a failure it runs the ordered path, so the error is
// still the interpreter's, which computes every source value before any
// target: a value failing after an earlier target outside the result raises
// the value's error.
TEST(PermuteNative, ErrorsInLargeSourcesAreTheInterpreters) {
  auto with_target = [](const std::string& target, const std::string& value) {
    return "(program () (permute (lambda ((new i64) (old i64)) (+ new old)) (fill (ix 256) 0) "
           "(lambda ((i (ix 1))) (let ((k (proj 0 i))) " +
           target + ")) (generate (ix 150000) (lambda ((i (ix 1))) (let ((k (proj 0 i))) " + value +
           ")))))";
  };
  const std::string in_range = "(ix (mod k 256))";
  // A target outside the result, in the third chunk.
  expect_error_as_interpreter(with_target("(if (== k 140000) (ix 256) (ix (mod k 256)))", "k"));
  // A value that fails (division by zero), in the second chunk.
  expect_error_as_interpreter(with_target(in_range, "(quot 1 (- k 70000))"));
  // Both: the target fails first in source order, the value later.
  expect_error_as_interpreter(
      with_target("(if (== k 5) (ix 300) (ix (mod k 256)))", "(quot 1 (- k 140000))"));
  // A value read outside an array, in the first chunk.
  expect_error_as_interpreter(
      "(program () (alet ((small (fill (ix 10) 1))) (permute (lambda ((new i64) (old i64)) (+ "
      "new old)) (fill (ix 256) 0) (lambda ((i (ix 1))) (ix (mod (proj 0 i) 256))) (generate (ix "
      "150000) (lambda ((i (ix 1))) (! small (ix (- 9 (proj 0 i)))))))))");
}

// Few sources into many targets: one chunk, the sequential loop.
TEST(PermuteNative, ManyTargetsFewSourcesEqualTheInterpreter) {
  expect_as_interpreter(permute("i64", "(+ new old)", "1", 5000, 100000, "k"));
  expect_as_interpreter(permute("f64", "new", "0.5", 5000, 100000, "(cast f64 k)"));
  expect_as_interpreter(permute("i64", "(+ new old)", "1", 0, 10, "k"));
}

// Combining functions that are not recognised keep the ordered path.
TEST(PermuteNative, OnlyOrderFreeCombinersAreRecognised) {
  auto recognised = [](const std::string& type, const std::string& body) {
    Program p = parse_and_check("(program () (permute (lambda ((new " + type + ") (old " + type +
                                ")) " + body + ") (fill (ix 4) " + (type == "f64" ? "0.0" : "0") +
                                ") (lambda ((i (ix 1))) i) (fill (ix 4) " +
                                (type == "f64" ? "1.0" : "1") + ")))");
    const auto& perm = std::get<ac::Permute>(p.body->node);
    return recognise_combine(perm.combine).has_value();
  };
  EXPECT_TRUE(recognised("i64", "(+ new old)"));
  EXPECT_TRUE(recognised("i64", "(max old new)"));
  EXPECT_TRUE(recognised("f64", "new"));
  EXPECT_TRUE(recognised("f64", "old"));
  EXPECT_FALSE(recognised("f64", "(+ new old)"));   // not associative in floats
  EXPECT_FALSE(recognised("f64", "(min new old)")); // ties and NaN depend on order
  EXPECT_FALSE(recognised("i64", "(- new old)"));   // not associative
  EXPECT_FALSE(recognised("i64", "(+ new new)"));
  EXPECT_FALSE(recognised("i64", "(+ (+ new old) 1)"));
}

} // namespace
} // namespace strata::test
