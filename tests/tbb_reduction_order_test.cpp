// The tbb engine runs fold, fold1 and every scan in the association order it
// is compiled with (CompileOptions::order, core/reduction_order.h) and
// declares it: its results are bitwise those of the interpreter replaying
// that order, for floats (random values: rounding matters), float min/max
// with signed zeros, non-associative (- a b) and tuple combiners, with and
// without a seed, at row lengths around every threshold and chunk boundary of
// blocked(), at short lengths under small(), and under canonical() and other
// orders; and a float sum in the blocked order differs from the canonical one.
#include <gtest/gtest.h>

#include <random>

#include "tests/tbb_expect.h"

namespace strata::test {
namespace {

// Random values of type T in [lo, hi), with some signed zeros: float min
// and max give different bits in different orders only on those.
template <class T> Array random_array(Shape shape, double lo, double hi, uint32_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<T> v(size_t(shape_size(shape)));
  for (size_t i = 0; i < v.size(); ++i) {
    if constexpr (std::is_floating_point_v<T>)
      v[i] = gen() % 16 == 0 ? T(gen() % 2 ? -0.0 : 0.0) : T(dist(gen));
    else
      v[i] = T(int64_t(dist(gen)));
  }
  return array_of<T>(v, shape);
}

// A combiner over elements of `type`, with what the fold and the scans need.
struct Combine {
  std::string type;  // element type, as written in a program
  std::string input; // array type of xs, e.g. (array f32 2)
  std::string fn;    // the lambda
  std::string seed;
  std::string elems = "xs"; // the array folded (over xs)
  double lo = -1, hi = 1;   // the range of the random inputs
};

std::string bin(const std::string& t, const std::string& body) {
  return "(lambda ((a " + t + ") (b " + t + ")) " + body + ")";
}

// f32 and f64 + and *, float min and max, (- a b) on f64 and i64, a tuple
// of a float sum and a float difference. `fused_map`: the folded array is a
// map of xs (a fused element function), otherwise xs itself.
std::vector<Combine> combiners(int rank, bool fused_map) {
  std::string r = std::to_string(rank);
  auto mapped = [&](const std::string& t, const std::string& body) {
    return fused_map ? "(map (lambda ((x " + t + ")) " + body + ") xs)" : std::string("xs");
  };
  std::vector<Combine> cs = {
      {"f32", "(array f32 " + r + ")", bin("f32", "(+ a b)"), "0.25f32",
       mapped("f32", "(* x 0.75f32)")},
      {"f64", "(array f64 " + r + ")", bin("f64", "(+ b a)"), "0.25f64",
       mapped("f64", "(* x 0.75f64)")},
      {"f32", "(array f32 " + r + ")", bin("f32", "(* a b)"), "1.5f32", mapped("f32", "(+ x 1f32)"),
       -0.001, 0.001},
      {"f64", "(array f64 " + r + ")", bin("f64", "(* a b)"), "1.5f64", mapped("f64", "(+ x 1f64)"),
       -0.001, 0.001},
      {"f32", "(array f32 " + r + ")", bin("f32", "(min a b)"), "0f32", mapped("f32", "x")},
      {"f64", "(array f64 " + r + ")", bin("f64", "(max b a)"), "-0f64", mapped("f64", "x")},
      {"f64", "(array f64 " + r + ")", bin("f64", "(- a b)"), "0.5f64",
       mapped("f64", "(* x 3f64)")},
      {"i64", "(array i64 " + r + ")", bin("i64", "(- a b)"), "7", mapped("i64", "(* x 3)"), -1000,
       1000},
      {"(tuple f32 f64)", "(array f32 " + r + ")",
       bin("(tuple f32 f64)", "(tuple (+ (proj 0 a) (proj 0 b)) (- (proj 1 b) (proj 1 a)))"),
       "(tuple 0.5f32 0.25f64)", "(map (lambda ((x f32)) (tuple x (cast f64 (* x x)))) xs)"},
  };
  return cs;
}

Array input_for(const Combine& c, Shape shape, uint32_t seed) {
  if (c.input.find("f32") != std::string::npos) return random_array<float>(shape, c.lo, c.hi, seed);
  if (c.input.find("f64") != std::string::npos)
    return random_array<double>(shape, c.lo, c.hi, seed);
  return random_array<int64_t>(shape, c.lo, c.hi, seed);
}

std::string program(const Combine& c, const std::string& op) {
  bool seeded = op != "fold1" && op != "scanl1" && op != "scanr1";
  return "(program ((xs " + c.input + ")) (" + op + " " + c.fn + (seeded ? " " + c.seed : "") +
         " " + c.elems + "))";
}

const char* const kFolds[] = {"fold", "fold1"};
const char* const kScans[] = {"scanl", "scanl1", "scanr", "scanr1", "scanl'"};

void folds_at(const ReductionOrder& order, Shape shape, bool fused_map) {
  uint32_t seed = uint32_t(shape.back());
  for (const Combine& c : combiners(int(shape.size()), fused_map)) {
    Array xs = input_for(c, shape, seed++);
    for (const char* op : kFolds)
      if (shape.back() > 0 || std::string(op) == "fold")
        expect_same_in(order, program(c, op), {xs});
  }
}

void scans_at(const ReductionOrder& order, Shape shape, bool fused_map, bool all_combiners) {
  uint32_t seed = uint32_t(shape.back()) + 1000;
  std::vector<Combine> cs = combiners(int(shape.size()), fused_map);
  for (size_t k = 0; k < cs.size(); ++k) {
    // f32 + (the native scan), (- a b) on f64 and i64, the tuple.
    if (!all_combiners && k != 0 && k != 6 && k != 7 && k != 8) continue;
    Array xs = input_for(cs[k], shape, seed++);
    for (const char* op : kScans)
      expect_same_in(order, program(cs[k], op), {xs});
  }
}

// The folded array is a map of xs (fused into the fold's element function)
// at every length, xs itself at one: both with fusion on and off.
// Around the blocked order's thresholds and chunk boundaries (boundary_order:
// blocked(), scaled down under the sanitizers).
TEST(TbbReductionOrder, FoldsAroundTheBlockedThresholdsAndChunks) {
  const ReductionOrder blocked = boundary_order();
  const int64_t f = blocked.fold_chunked_from, c = blocked.fold_chunk;
  for (int64_t n : {f - 1, f, f + 1, c * 3 - 1, c * 3 + 1, c * 6 + c / 8 + 5})
    folds_at(blocked, {n}, true);
  folds_at(blocked, {f + 1}, false);
}

TEST(TbbReductionOrder, FoldsOfSeveralLongRows) {
  const ReductionOrder blocked = boundary_order();
  folds_at(blocked, {3, blocked.fold_chunk * 2 + blocked.fold_chunk / 2 + 3}, true);
}

TEST(TbbReductionOrder, ScansAroundTheBlockedThresholdsAndChunks) {
  const ReductionOrder blocked = boundary_order();
  const int64_t f = blocked.scan_chunked_from, c = blocked.scan_chunk;
  for (int64_t n : {f - 1, f, f + 1, c * 5 + 7})
    scans_at(blocked, {n}, true, false);
  scans_at(blocked, {f + 1}, false, false);
  scans_at(blocked, {2, f + 1}, true, false);
}

TEST(TbbReductionOrder, FloatScansOfEveryCombinerInTheBlockedOrder) {
  const ReductionOrder blocked = boundary_order();
  scans_at(blocked, {blocked.scan_chunk * 4 + 5}, true, true);
}

TEST(TbbReductionOrder, ShortRowsInTheSmallOrder) {
  ReductionOrder small = ReductionOrder::small();
  for (int64_t n = 0; n <= 40; ++n)
    for (bool fused_map : {true, false}) {
      folds_at(small, {3, n}, fused_map);
      scans_at(small, {2, n}, fused_map, true);
    }
  folds_at(small, {1}, true);
}

TEST(TbbReductionOrder, LongRowsInTheSmallOrder) {
  // Thousands of chunks and rows of at least kBatch (the native paths'
  // threshold) with lanes that are not the native ones.
  for (int64_t n : {1024, 3001}) {
    folds_at(ReductionOrder::small(), {n}, true);
    scans_at(ReductionOrder::small(), {n}, true, false);
  }
}

TEST(TbbReductionOrder, TheCanonicalOrder) {
  ReductionOrder canonical = ReductionOrder::canonical();
  for (int64_t n : {0, 1, 5, 33, 1025})
    for (bool fused_map : {true, false}) {
      folds_at(canonical, {2, n}, fused_map);
      scans_at(canonical, {2, n}, fused_map, true);
    }
  folds_at(canonical, {100000}, true);
  scans_at(canonical, {70000}, true, false);
}

TEST(TbbReductionOrder, OtherOrders) {
  // Native lanes (128 bytes) with chunks that are not multiples of kBatch or
  // of the lanes; fewer lane bytes than native; more lanes than kBatch (f32:
  // 2^15 lanes in chunks of 40000: 45001 elements make two); one lane.
  std::vector<ReductionOrder> orders = {
      {1000, 1000, 1500, 777, 128},
      {50, 4096, 50, 1000, 64},
      {40000, 40000, 40000, 40000, 1 << 17},
      {2, 5, 2, 5, 1},
  };
  for (const ReductionOrder& order : orders) {
    for (int64_t n : {2047, 45001})
      folds_at(order, {n}, true);
    scans_at(order, {3001}, true, false);
    scans_at(order, {45001}, false, false);
  }
}

TEST(TbbReductionOrder, TheDeclaredOrderMatters) {
  // A float sum of 10^6 random values in the blocked order differs from the
  // spec's left-to-right sum: a wrong declaration would be caught.
  Program p = parse_and_check(
      "(program ((xs (array f32 1))) (fold (lambda ((a f32) (b f32)) (+ a b)) 0f32 xs))");
  std::vector<Array> xs = {random_array<float>({1000000}, -1, 1, 42)};
  std::unique_ptr<Executable> exe = tbb_engine().compile(p, CompileOptions{});
  EXPECT_EQ(exe->reduction_order(), ReductionOrder::blocked());
  Array got = exe->run(xs)[0];
  Array canonical = interpret(p, xs)[0];
  Array blocked = interpret(p, xs, InterpreterOptions{.order = ReductionOrder::blocked()})[0];
  EXPECT_FALSE(identical(got, canonical)) << values_of<float>(got)[0];
  EXPECT_TRUE(identical(got, blocked));
}

} // namespace
} // namespace strata::test
