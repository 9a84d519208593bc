// awhile on the tbb engine: double buffering (the number of buffers a run
// allocates does not depend on the number of iterations, counted with
// Buffer::allocation_count) and hand-computed results, for a single array
// state, a tuple state, and a body with every kind of kernel.
#include <gtest/gtest.h>

#include "tbb/engine.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {

const Engine& tbb_engine() {
  static auto engine = make_tbb_engine();
  return *engine;
}

struct Counted {
  std::vector<Array> results;
  uint64_t allocations = 0;
};

// Runs a freshly compiled executable (an executable keeps storage from one
// run for the next, so a second run of the same one allocates less).
Counted run_counted(const Program& p, bool fused, const std::vector<Array>& inputs) {
  auto exe = tbb_engine().compile(p, CompileOptions{fused, true});
  uint64_t before = Buffer::allocation_count();
  Counted c;
  c.results = exe->run(inputs);
  c.allocations = Buffer::allocation_count() - before;
  return c;
}

// s := s + 1 over 10^4 elements while max(s) < 9999 + n: n iterations, each
// a map and a fold1 (the condition).
const char* kCounter = "(program ((n (array i64 0)))"
                       "  (awhile (lambda ((s (array i64 1)))"
                       "            (map (lambda ((m i64)) (< m (+ 9999 (the n))))"
                       "                 (fold1 (lambda ((a i64) (b i64)) (max a b)) s)))"
                       "          (lambda ((s (array i64 1))) (map (lambda ((x i64)) (+ x 1)) s))"
                       "          (generate (ix 10000) (lambda ((i (ix 1))) (proj 0 i)))))";

TEST(TbbLoop, SingleArrayStateAllocatesTheSameForTenAndAThousandIterations) {
  Program p = parse_and_check(kCounter);
  for (bool fused : {true, false}) {
    SCOPED_TRACE(fused ? "fused" : "unfused");
    Counted few = run_counted(p, fused, {scalar_array<int64_t>(10)});
    Counted many = run_counted(p, fused, {scalar_array<int64_t>(1000)});
    EXPECT_EQ(many.allocations, few.allocations);
    EXPECT_LE(few.allocations, 12u);
    for (const auto& [iterations, run] : {std::pair{10, &few}, std::pair{1000, &many}}) {
      std::vector<int64_t> v = values_of<int64_t>(run->results.at(0));
      ASSERT_EQ(v.size(), 10000u);
      for (size_t i = 0; i < v.size(); ++i)
        ASSERT_EQ(v[i], int64_t(i) + iterations) << "element " << i;
    }
  }
}

// A tuple state (f64 array, i64 counter) whose body also reads an array
// computed before the loop: x := x * 0.5 + w, n times.
const char* kTuple =
    "(program ((xs (array f64 1)) (n (array i64 0)))"
    "  (alet ((w (map (lambda ((x f64)) (/ x 4.0)) xs)))"
    "    (awhile (lambda ((s (tuple (array f64 1) (array i64 0))))"
    "              (alet ((c (aproj 1 s))) (unit (< (the c) (the n)))))"
    "            (lambda ((s (tuple (array f64 1) (array i64 0))))"
    "              (atuple (zipwith (lambda ((x f64) (y f64)) (+ (* x 0.5) y)) (aproj 0 s) w)"
    "                      (map (lambda ((c i64)) (+ c 1)) (aproj 1 s))))"
    "            (atuple xs (unit 0)))))";

TEST(TbbLoop, TupleStateAllocatesTheSameForTenAndAThousandIterations) {
  Program p = parse_and_check(kTuple);
  std::vector<double> xs(10000);
  for (size_t i = 0; i < xs.size(); ++i)
    xs[i] = double(i % 101) - 50.0;
  Array input = array_of<double>(xs, {int64_t(xs.size())});
  for (bool fused : {true, false}) {
    SCOPED_TRACE(fused ? "fused" : "unfused");
    Counted few = run_counted(p, fused, {input, scalar_array<int64_t>(10)});
    Counted many = run_counted(p, fused, {input, scalar_array<int64_t>(1000)});
    EXPECT_EQ(many.allocations, few.allocations);
    for (const auto& [iterations, run] : {std::pair{10, &few}, std::pair{1000, &many}}) {
      ASSERT_EQ(run->results.size(), 2u);
      EXPECT_EQ(values_of<int64_t>(run->results[1]), std::vector<int64_t>{iterations});
      std::vector<double> got = values_of<double>(run->results[0]);
      ASSERT_EQ(got.size(), xs.size());
      for (size_t i = 0; i < xs.size(); ++i) {
        double x = xs[i], w = xs[i] / 4.0;
        for (int k = 0; k < iterations; ++k)
          x = x * 0.5 + w;
        ASSERT_EQ(got[i], x) << "element " << i;
      }
    }
  }
}

// Every kernel kind inside one loop body (scan, stencil, permute with ignore,
// foldseg, fold): still no allocation per iteration, and the interpreter's
// result bitwise (integers only; 10 iterations, to keep the interpreter fast).
const char* kEveryKernel =
    "(program ((n (array i64 0)))"
    "  (aproj 0 (awhile (lambda ((s (tuple (array i64 1) (array i64 0))))"
    "              (alet ((c (aproj 1 s))) (unit (< (the c) (the n)))))"
    "    (lambda ((s (tuple (array i64 1) (array i64 0))))"
    "      (alet ((a (aproj 0 s))"
    "             (sc (scanl1 (lambda ((p i64) (q i64)) (bxor p q)) a))"
    "             (st (stencil (3) wrap (lambda ((nb (window i64 1)))"
    "                   (+ (at nb -1) (* 3 (at nb 1)))) sc))"
    "             (h (permute (lambda ((new i64) (old i64)) (+ new old)) (fill (ix 64) 0)"
    "                  (lambda ((i (ix 1))) (if (== (mod (proj 0 i) 5) 0) (ignore 1)"
    "                     (ix (mod (!! st (proj 0 i)) 64)))) st))"
    "             (fs (foldseg (lambda ((p i64) (q i64)) (+ p q)) 0 st (use (array i64 (2) 1000 "
    "1000))))"
    "             (t (fold (lambda ((p i64) (q i64)) (+ p q)) 0 h)))"
    "        (atuple (generate (ix 2000) (lambda ((i (ix 1)))"
    "                  (mod (+ (!! st (proj 0 i)) (+ (!! h (mod (proj 0 i) 64))"
    "                       (+ (the t) (!! fs (mod (proj 0 i) 2))))) 1000003)))"
    "                (map (lambda ((c i64)) (+ c 1)) (aproj 1 s)))))"
    "    (atuple (generate (ix 2000) (lambda ((i (ix 1))) (* (proj 0 i) 7))) (unit 0)))))";

TEST(TbbLoop, EveryKernelKindInALoopBodyAllocatesTheSameForTenAndAThousandIterations) {
  Program p = parse_and_check(kEveryKernel);
  std::vector<Array> oracle = interpret(p, {scalar_array<int64_t>(10)});
  for (bool fused : {true, false}) {
    SCOPED_TRACE(fused ? "fused" : "unfused");
    Counted few = run_counted(p, fused, {scalar_array<int64_t>(10)});
    Counted many = run_counted(p, fused, {scalar_array<int64_t>(1000)});
    EXPECT_EQ(many.allocations, few.allocations);
    ASSERT_EQ(few.results.size(), 1u);
    EXPECT_TRUE(identical(few.results[0], oracle[0]));
  }
}

} // namespace
} // namespace strata::test

namespace strata::test {
namespace {

// A second run of the same executable reuses the storage of the first's
// kernel outputs and scratch once the caller has dropped its results, and
// gives the same results.
TEST(TbbLoop, RepeatedRunsReuseStorageTheCallerDropped) {
  Program p = parse_and_check(
      "(program ((xs (array i64 1))) (permute (lambda ((a i64) (b i64)) (+ a b)) (fill (ix 8) 0)"
      " (lambda ((i (ix 1))) (ix (mod (! xs i) 8))) (map (lambda ((x i64)) (* x 2)) xs)))");
  std::vector<int64_t> v(100000);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = int64_t(i % 1000);
  Array xs = array_of<int64_t>(v);
  auto exe = tbb_engine().compile(p, CompileOptions{true, true});
  std::vector<int64_t> first = values_of<int64_t>(exe->run({xs}).at(0));
  uint64_t before = Buffer::allocation_count();
  std::vector<int64_t> second = values_of<int64_t>(exe->run({xs}).at(0));
  EXPECT_EQ(Buffer::allocation_count(), before); // the result, and permute's source
  EXPECT_EQ(first, second);
  std::vector<Array> held = exe->run({xs}); // held: the next run must not write into it
  std::vector<Array> next = exe->run({xs});
  EXPECT_TRUE(identical(held.at(0), next.at(0)));
  EXPECT_NE(held.at(0).leaf(0).data(), next.at(0).leaf(0).data());
}

} // namespace
} // namespace strata::test
