// Determinism of the tbb engine for every kernel kind: each program runs
// twice with 1, 2 and 8 threads, fused and unfused, and every result must be
// bitwise the same (docs/language.md, Pinned semantics: the reduction tree depends on data size,
// never on the thread count). Float data, at sizes that take the chunked
// parallel paths, so that a scheduler-dependent order would show.
#include <gtest/gtest.h>

#include <tbb/global_control.h>

#include "tbb/engine.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {

const Engine& tbb_engine() {
  static auto engine = make_tbb_engine();
  return *engine;
}

void expect_deterministic(const std::string& body) {
  Program p = parse_and_check("(program () " + body + ")");
  for (bool fused : {true, false}) {
    auto exe = tbb_engine().compile(p, CompileOptions{fused, true});
    std::vector<Array> reference;
    for (int threads : {1, 2, 8}) {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, size_t(threads));
      for (int run = 0; run < 2; ++run) {
        std::vector<Array> got = exe->run({});
        if (reference.empty()) reference = got;
        ASSERT_EQ(got.size(), reference.size());
        for (size_t i = 0; i < got.size(); ++i)
          EXPECT_TRUE(identical(got[i], reference[i]))
              << (fused ? "fused, " : "unfused, ") << threads << " threads, run " << run
              << ", result " << i << ": " << body;
      }
    }
  }
}

// 2 rows of 100 000 floats: long rows (chunked folds and scans).
const std::string kRows = "(generate (ix 2 100000) (lambda ((i (ix 2)))"
                          " (sin (cast f32 (+ (* (proj 0 i) 7) (proj 1 i))))))";
const std::string kAdd = "(lambda ((a f32) (b f32)) (+ a b))";

TEST(TbbDeterminism, Fold) {
  expect_deterministic("(fold " + kAdd + " 0.5f32 " + kRows + ")");
}

TEST(TbbDeterminism, Fold1) {
  expect_deterministic("(fold1 " + kAdd + " " + kRows + ")");
}

TEST(TbbDeterminism, FoldSeg) {
  expect_deterministic("(foldseg " + kAdd + " 0f32 " + kRows +
                       " (generate (ix 400) (lambda ((i (ix 1))) 250)))");
}

TEST(TbbDeterminism, Scans) {
  for (const char* scan : {"scanl", "scanr", "scanl'"})
    expect_deterministic(std::string("(") + scan + " " + kAdd + " 1f32 " + kRows + ")");
  for (const char* scan : {"scanl1", "scanr1"})
    expect_deterministic(std::string("(") + scan + " " + kAdd + " " + kRows + ")");
}

TEST(TbbDeterminism, Permute) {
  std::string target = "(lambda ((i (ix 1))) (let ((k (proj 0 i))) (if (== (mod k 11) 0) (ignore "
                       "1) (ix (mod (* k 40503) 256)))))";
  std::string src = "(generate (ix 300000) (lambda ((i (ix 1))) (cos (cast f64 (proj 0 i)))))";
  // float + (the ordered path), the last element wins (the parallel path) and
  // an integer histogram (the parallel path).
  expect_deterministic("(permute (lambda ((n f64) (o f64)) (+ n o)) (fill (ix 256) 0.0) " + target +
                       " " + src + ")");
  expect_deterministic("(permute (lambda ((n f64) (o f64)) n) (fill (ix 256) 0.0) " + target + " " +
                       src + ")");
  expect_deterministic("(permute (lambda ((n i64) (o i64)) (+ n o)) (fill (ix 256) 0) " + target +
                       " (fill (ix 300000) 1))");
}

TEST(TbbDeterminism, Stencil) {
  for (const char* boundary : {"clamp", "mirror", "wrap", "(constant 0.25f32)"})
    expect_deterministic(std::string("(stencil (3 5) ") + boundary +
                         " (lambda ((nb (window f32 2))) (+ (* (at nb -1 2) 0.5f32) (- (at nb 0 0) "
                         "(at nb 1 -2)))) (generate (ix 300 700) (lambda ((i (ix 2))) (sin (cast "
                         "f32 (+ (* (proj 0 i) 700) (proj 1 i)))))))");
}

TEST(TbbDeterminism, Awhile) {
  // Each iteration sums the state (a chunked float fold) into every element.
  expect_deterministic(
      "(aproj 0 (awhile (lambda ((s (tuple (array f32 1) (array i64 0))))"
      "  (alet ((c (aproj 1 s))) (unit (< (the c) 5))))"
      "  (lambda ((s (tuple (array f32 1) (array i64 0))))"
      "    (alet ((a (aproj 0 s)) (t (fold (lambda ((p f32) (q f32)) (+ p q)) 0f32 a)))"
      "      (atuple (map (lambda ((x f32)) (+ (* x 0.5f32) (/ (the t) 100000f32))) a)"
      "              (alet ((c (aproj 1 s))) (unit (+ (the c) 1))))))"
      "  (atuple (generate (ix 100000) (lambda ((i (ix 1))) (sin (cast f32 (proj 0 i))))) (unit "
      "0))))");
}

} // namespace
} // namespace strata::test
