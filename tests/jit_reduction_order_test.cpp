// The jit runs the association order it is asked for (CompileOptions::order,
// core/reduction_order.h) and declares it: every fold, fold1 and scan is
// compared BITWISE with the interpreter replaying the same order, for float
// sums and products of non-integer values, float min/max, non-associative
// combiners ((- a b) on f64 and i64), tuples, fused and unfused, at row
// lengths around every threshold and chunk boundary of the blocked order,
// under small() on rows of 0 to 40 elements, and canonical().
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "jit/engine.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {

const Engine& jit_engine() {
  static auto engine = make_jit_engine();
  return *engine;
}

// Non-integer values around 1 (products stay finite), i64 in [-1000, 1000].
Array random_array(const std::string& elem, const Shape& shape, uint32_t seed) {
  std::mt19937 rng(seed);
  int64_t n = shape_size(shape);
  if (elem == "f32") {
    std::uniform_real_distribution<float> d(0.5f, 1.5f);
    std::vector<float> v(static_cast<size_t>(n));
    for (float& x : v)
      x = d(rng);
    return array_of(v, shape);
  }
  if (elem == "f64") {
    std::uniform_real_distribution<double> d(0.5, 1.5);
    std::vector<double> v(static_cast<size_t>(n));
    for (double& x : v)
      x = d(rng);
    return array_of(v, shape);
  }
  std::uniform_int_distribution<int64_t> d(-1000, 1000);
  std::vector<int64_t> v(static_cast<size_t>(n));
  for (int64_t& x : v)
    x = d(rng);
  return array_of(v, shape);
}

// Inputs of one program, named for the failure message by their shape.
struct Case {
  std::vector<Array> inputs;
  std::string what;
};

// The jit under `order`, fused and unfused, against the interpreter under
// the same order on every case: every result bitwise; the executable declares
// `order`. Each variant compiles once for all the cases.
void expect_bitwise(const std::string& text, const std::vector<Case>& cases,
                    const ReductionOrder& order) {
  Program p = parse_and_check(text);
  InterpreterOptions io;
  io.order = order;
  for (bool fused : {true, false}) {
    CompileOptions co;
    co.fusion = fused;
    co.order = order;
    std::unique_ptr<Executable> exe = jit_engine().compile(p, co);
    EXPECT_EQ(exe->reduction_order(), order);
    for (const Case& c : cases) {
      SCOPED_TRACE(c.what + (fused ? " fused " : " unfused ") + order.describe() + "\n" + text);
      std::vector<Array> want = interpret(p, c.inputs, io);
      std::vector<Array> got = exe->run(c.inputs);
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_TRUE(identical(got[i], want[i])) << "result " << i;
    }
  }
}

// Folds of rank-`rank` input `xs` (and `ys`, same shape) of element `t`: the
// input goes through a map so that fused, the fold reads a delayed array.
struct Fold {
  std::string t;    // element type of xs
  std::string body; // the fold, over `in`
};

std::vector<Fold> folds() {
  auto fold = [](const std::string& t, const std::string& op, const std::string& seed) {
    std::string f = "(lambda ((a " + t + ") (b " + t + ")) " + op + ")";
    return std::vector<Fold>{{t, "(fold " + f + " " + seed + " in)"}, {t, "(fold1 " + f + " in)"}};
  };
  std::vector<Fold> all;
  for (const auto& v : {fold("f32", "(+ a b)", "0.25f32"), fold("f32", "(* b a)", "1.5f32"),
                        fold("f64", "(+ b a)", "-0.75"), fold("f64", "(* a b)", "1.0"),
                        fold("f32", "(min a b)", "2f32"), fold("f32", "(max a b)", "0f32"),
                        fold("f64", "(- a b)", "3.5"), fold("i64", "(- a b)", "7"),
                        fold("f32", "(+ (* a 0.5f32) b)", "1f32")})
    all.insert(all.end(), v.begin(), v.end());
  // A tuple combiner (+ on the first leaf, - on the second).
  std::string tf = "(lambda ((a (tuple f64 i64)) (b (tuple f64 i64))) (tuple (+ (proj 0 a) "
                   "(proj 0 b)) (- (proj 1 a) (proj 1 b))))";
  all.push_back({"tuple", "(fold " + tf + " (tuple 0.5 3) in)"});
  all.push_back({"tuple", "(fold1 " + tf + " in)"});
  return all;
}

// The program of `body` over `in`, the map of input xs (rank `rank`).
std::string program(const std::string& t, int rank, const std::string& body) {
  std::string r = std::to_string(rank);
  if (t == "tuple")
    return "(program ((xs (array f64 " + r + ")) (ys (array i64 " + r +
           "))) (alet ((in (zipwith (lambda ((x f64) (y i64)) (tuple (* x 1.25) (+ y 1))) xs "
           "ys))) " +
           body + "))";
  std::string scale = t == "i64" ? "3" : t == "f32" ? "1.25f32" : "1.25";
  return "(program ((xs (array " + t + " " + r + "))) (alet ((in (map (lambda ((x " + t +
         ")) (* x " + scale + ")) xs))) " + body + "))";
}

std::vector<Array> inputs(const std::string& t, const Shape& shape, uint32_t seed) {
  if (t == "tuple") return {random_array("f64", shape, seed), random_array("i64", shape, seed + 1)};
  return {random_array(t, shape, seed)};
}

// Every program of `t` and `body` at each rank among `shapes`, compiled
// once per rank and run on each shape of it (inputs drawn from `seed` on).
void check_body(const std::string& t, const std::string& body, const std::vector<Shape>& shapes,
                const ReductionOrder& order, uint32_t& seed) {
  std::map<int, std::vector<Case>> by_rank;
  for (const Shape& sh : shapes)
    by_rank[int(sh.size())].push_back({inputs(t, sh, seed++), shape_str(sh)});
  for (const auto& [rank, cases] : by_rank)
    expect_bitwise(program(t, rank, body), cases, order);
}

void check_folds(const ReductionOrder& order, const std::vector<Shape>& shapes) {
  uint32_t seed = 1;
  for (const Fold& f : folds()) {
    bool fold1 = f.body.rfind("(fold1", 0) == 0;
    std::vector<Shape> valid;
    for (const Shape& sh : shapes)
      if (!fold1 || sh.back() != 0)
        valid.push_back(sh); // fold1 of nothing: an error, tested elsewhere
    check_body(f.t, f.body, valid, order, seed);
  }
}

// Around the blocked order's thresholds and chunk boundaries (boundary_order:
// blocked(), scaled down under the sanitizers).
TEST(JitReductionOrder, FoldsRunTheBlockedOrderAroundItsBoundaries) {
  const ReductionOrder o = boundary_order();
  const int64_t f = o.fold_chunked_from, c = o.fold_chunk;
  check_folds(o, {{f - 1},
                  {f},
                  {f + 1},
                  {c * 3 - 1},
                  {c * 3 + 1},
                  {c * 6 + c / 8 + 5},
                  {3, c * 2 + c / 2 + 3},
                  {2, 5}});
}

TEST(JitReductionOrder, FoldsRunSmallOrdersOnShortRows) {
  std::vector<Shape> shapes;
  for (int64_t n = 0; n <= 40; ++n)
    shapes.push_back({n});
  shapes.push_back({3, 7});
  check_folds(ReductionOrder::small(), shapes);
  // Lanes that do not divide the chunk, one lane, lanes past the chunk.
  check_folds(ReductionOrder{5, 7, 5, 7, 16}, {{6}, {23}, {50}});
  check_folds(ReductionOrder{2, 9, 2, 9, 1}, {{2}, {30}});
  check_folds(ReductionOrder{4, 3, 4, 3, 256}, {{4}, {31}});
}

TEST(JitReductionOrder, FoldsRunTheCanonicalOrder) {
  check_folds(ReductionOrder::canonical(), {{0}, {1}, {100}, {40000}, {2, 33000}});
}

// Every scan kind on element `t` with combiner `op` (over a, b: right scans
// get (lambda (x a)) ...).
std::vector<std::string> scans(const std::string& t, const std::string& op,
                               const std::string& seed) {
  std::string f = "(lambda ((a " + t + ") (b " + t + ")) " + op + ")";
  return {"(scanl " + f + " " + seed + " in)", "(scanl1 " + f + " in)",
          "(scanr " + f + " " + seed + " in)", "(scanr1 " + f + " in)",
          "(alet ((s (scanl' " + f + " " + seed + " in))) (atuple (aproj 0 s) (aproj 1 s)))"};
}

void check_scans(const ReductionOrder& order, const std::vector<Shape>& shapes) {
  uint32_t seed = 100;
  std::vector<std::pair<std::string, std::vector<std::string>>> all = {
      {"f32", scans("f32", "(+ a b)", "0.25f32")},
      {"f64", scans("f64", "(* a b)", "1.0")},
      {"f64", scans("f64", "(- a b)", "2.5")},
      {"i64", scans("i64", "(- b a)", "5")},
      {"f32", scans("f32", "(max a b)", "1f32")},
      {"tuple",
       scans("(tuple f64 i64)", "(tuple (+ (proj 0 a) (proj 0 b)) (- (proj 1 a) (proj 1 b)))",
             "(tuple 0.5 3)")}};
  for (const auto& [t, bodies] : all)
    for (const std::string& body : bodies)
      check_body(t, body, shapes, order, seed);
}

TEST(JitReductionOrder, ScansRunTheBlockedOrderAroundItsBoundaries) {
  const ReductionOrder o = boundary_order();
  const int64_t f = o.scan_chunked_from, c = o.scan_chunk;
  check_scans(o, {{f - 1}, {f}, {f + 1}, {c * 5 + 7}, {2, f + c / 4 + 7}});
}

TEST(JitReductionOrder, ScansRunSmallOrdersOnShortRows) {
  std::vector<Shape> shapes;
  for (int64_t n = 0; n <= 40; ++n)
    shapes.push_back({n});
  shapes.push_back({3, 7});
  check_scans(ReductionOrder::small(), shapes);
  check_scans(ReductionOrder{5, 7, 5, 7, 16}, {{23}, {50}});
}

TEST(JitReductionOrder, ScansRunTheCanonicalOrder) {
  check_scans(ReductionOrder::canonical(), {{0}, {1}, {70000}});
}

// The blocked order is another order: a float sum of 10^6 non-integer values
// differs bitwise from the canonical one (the interpreter's default).
TEST(JitReductionOrder, BlockedFloatSumDiffersFromTheCanonicalOne) {
  Program p = parse_and_check(
      "(program ((xs (array f32 1))) (fold (lambda ((a f32) (b f32)) (+ a b)) 0f32 xs))");
  std::vector<Array> in = {random_array("f32", {1000000}, 7)};
  std::vector<Array> canonical = interpret(p, in);
  std::unique_ptr<Executable> exe = jit_engine().compile(p, CompileOptions{});
  EXPECT_EQ(exe->reduction_order(), ReductionOrder::blocked());
  std::vector<Array> got = exe->run(in);
  EXPECT_FALSE(identical(got[0], canonical[0]));
  InterpreterOptions io;
  io.order = ReductionOrder::blocked();
  EXPECT_TRUE(identical(got[0], interpret(p, in, io)[0]));
}

} // namespace
} // namespace strata::test
