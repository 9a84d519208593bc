// The jit runs the association order it is asked for (CompileOptions::order,
// core/reduction_order.h) and declares it: every fold, fold1 and scan is
// compared BITWISE with the interpreter replaying the same order, for float
// sums and products of non-integer values, float min/max, non-associative
// combiners ((- a b) on f64 and i64), tuples, fused and unfused, at row
// lengths around every threshold and chunk boundary of the blocked order,
// under small() on rows of 0 to 40 elements, and canonical().
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <optional>
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

// The same outcome as the interpreter under `order`, fused and unfused: the
// results bitwise, or an error of the same kind and headline.
void expect_same_outcome(const std::string& text, const std::vector<Array>& in,
                         const ReductionOrder& order) {
  Program p = parse_and_check(text);
  InterpreterOptions io;
  io.order = order;
  std::optional<Error> want_error;
  std::vector<Array> want;
  try {
    want = interpret(p, in, io);
  } catch (const Error& e) {
    want_error = e;
  }
  for (bool fused : {true, false}) {
    SCOPED_TRACE(std::string(fused ? "fused\n" : "unfused\n") + text);
    CompileOptions co;
    co.fusion = fused;
    co.order = order;
    std::unique_ptr<Executable> exe = jit_engine().compile(p, co);
    try {
      std::vector<Array> got = exe->run(in);
      ASSERT_FALSE(want_error) << "the interpreter raised " << want_error->headline();
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_TRUE(identical(got[i], want[i])) << "result " << i;
    } catch (const Error& e) {
      ASSERT_TRUE(want_error) << "the jit raised " << e.headline();
      EXPECT_EQ(e.kind(), want_error->kind());
      EXPECT_EQ(e.headline(), want_error->headline());
    }
  }
}

// Reads at positions affine in the element's (c * j + r, c in -1 0 1) are
// checked once per chunk by a float fold's or scan's vector chunk code
// (jit/chunk_reads.cpp): in range, the sums are the interpreter's; where one
// fails, in any chunk, at its first or last element or behind an earlier
// element's failing read that is checked per element, the error is the
// interpreter's (the first in element order); a read behind an `if` keeps
// its check per element. Chunks of 600 f32 elements, 8 lanes: two blocks of
// the vector code per chunk, three chunks per row of 1500; the same for the
// chunk code of tuples (lanes in memory) and integers (left to right).
TEST(JitReductionOrder, ReadsCheckedOncePerChunkRaiseTheFirstError) {
  const ReductionOrder order{64, 600, 64, 600, 32};
  const std::string head = "(program ((xs (array f32 1)) (m (array f32 2)))\n";
  using Make = std::function<std::string(const std::string&, const std::string&)>;
  // `form` (fold or scanl) with `fn` and `seed` over a generate of `extent`
  // elements, each `value(elem)` where `elem` reads (j is the position).
  auto reduce = [&](const std::string& form, const std::string& fn, const std::string& seed,
                    std::function<std::string(const std::string&)> value) -> Make {
    return [=](const std::string& extent, const std::string& elem) {
      return head + "(" + form + " " + fn + " " + seed + " (generate (ix " + extent +
             ") (lambda ((i (ix 1))) (let ((j (proj 0 i))) " + value(elem) + ")))))";
    };
  };
  auto as_is = [](const std::string& e) { return e; };
  auto as_int = [](const std::string& e) { return "(cast i32 (* 8f32 " + e + "))"; };
  const std::string sum_f32 = "(lambda ((a f32) (b f32)) (+ a b))";
  const std::string sum_i32 = "(lambda ((a i32) (b i32)) (+ a b))";
  Make fold = reduce("fold", sum_f32, "0.5f32", as_is);
  Make scan = reduce("scanl", sum_f32, "0.5f32", as_is);
  // The chunk code of any length (jit/fold_codegen.h chunk_total): tuples
  // in lanes in memory (reads checked once per chunk), integers folded left
  // to right (checked per element).
  Make ints = reduce("fold", sum_i32, "3i32", as_int);
  Make int_scan = reduce("scanl", sum_i32, "3i32", as_int);
  Make tuple = reduce("fold",
                      "(lambda ((a (tuple f32 f32)) (b (tuple f32 f32))) (tuple (+ (proj 0 a) "
                      "(proj 0 b)) (- (proj 1 a) (proj 1 b))))",
                      "(tuple 0f32 1f32)", [](const std::string& e) {
                        return "(let ((v " + e + ")) (tuple v (* v v)))";
                      });
  std::vector<std::string> texts;
  for (const Make& make : {fold, scan, ints, int_scan, tuple}) {
    // In range: shifted, reversed, a fixed element, a sum of two reads.
    texts.push_back(make("(- (size xs) 3)", "(! xs (ix (+ j 3)))"));
    texts.push_back(make("(size xs)", "(! xs (ix (- (- (size xs) 1) j)))"));
    texts.push_back(make("(size xs)", "(* (! xs (ix 7)) (! xs (ix j)))"));
    // Out of range at the last element (last chunk), at the first (index
    // -1), everywhere (a fixed index), and reversed past the start.
    texts.push_back(make("(size xs)", "(! xs (ix (+ j 1)))"));
    texts.push_back(make("(size xs)", "(! xs (ix (- j 1)))"));
    texts.push_back(make("(size xs)", "(! xs (ix (size xs)))"));
    texts.push_back(make("(+ (size xs) 40)", "(! xs (ix (- (- (size xs) 1) j)))"));
    // A read checked per element (j * 2) fails first, at j = 750 (the
    // second chunk), before the affine read (j + 5) fails at j = 1495.
    texts.push_back(make("(size xs)", "(+ (! xs (ix (+ j 5))) (! xs (ix (* j 2))))"));
    // Behind an `if`: only the elements it takes read, none out of range.
    texts.push_back(make("(size xs)", "(if (< (+ j 7) (size xs)) (! xs (ix (+ j 7))) 0.25f32)"));
    // !! and a rank-2 read: row 1 of m, shifted.
    texts.push_back(make("(- (size xs) 2)", "(!! xs (+ j 2))"));
    texts.push_back(make("(size xs)", "(!! xs (+ j 2))"));
    texts.push_back(make("(- (size xs) 1)", "(! m (ix 1 (+ j 1)))"));
    texts.push_back(make("(size xs)", "(! m (ix 1 (+ j 1)))"));
    texts.push_back(make("(size xs)", "(! m (ix 2 j))"));
    // At the element's own index (the chunk's elements in lanes where the
    // combiner allows, jit/lane_codegen.h chunk_in_lanes) and a fixed one:
    // in range, past the end in the last chunk, a fixed one out of range.
    texts.push_back(make("(size xs)", "(* (! xs i) (! m (ix 1 7)))"));
    texts.push_back(make("(+ (size xs) 3)", "(! xs i)"));
    texts.push_back(make("(size xs)", "(+ (! xs i) (! m (ix 2 7)))"));
  }
  std::vector<float> xs(1500), m(3000);
  for (size_t k = 0; k < xs.size(); ++k)
    xs[k] = 0.5f + float(k % 13) / 7.0f;
  for (size_t k = 0; k < m.size(); ++k)
    m[k] = 1.0f - float(k % 11) / 5.0f;
  std::vector<Array> in = {array_of(xs, {1500}), array_of(m, {2, 1500})};
  for (const std::string& text : texts)
    expect_same_outcome(text, in, order);
}

// A fold's rows (shorter than fold_chunked_from: the row entry) check reads
// at positions affine in the element's once per row, and once per group of
// rows in lanes, every lane (jit/chunk_reads.cpp): in range, the results are
// the interpreter's; where one fails, in a row in lanes or in a row left
// after the groups, at a row's first or last element, behind an earlier
// element's failing read checked per element, or only in one lane of a
// group, the error is the interpreter's (the first in element order); a
// read behind an `if` or in the combiner keeps its check per element. 37 rows of 40 (two or
// four groups of lanes, then five rows one at a time), floats (rows in
// lanes), a tuple (nbody's shape), integers (no lanes) and fold1; rank 3
// (an outer index of two components per lane).
TEST(JitReductionOrder, ReadsCheckedOncePerRowRaiseTheFirstError) {
  const ReductionOrder order{64, 600, 64, 600, 32};
  const std::string head = "(program ((xs (array f32 1)) (ys (array f32 1)) (m (array f32 2)))\n";
  using Make = std::function<std::string(const std::string&, const std::string&)>;
  auto gen = [](const std::string& shape, const std::string& elem) {
    return "(generate (ix " + shape +
           ") (lambda ((p (ix 2))) (let ((i (proj 0 p)) (j (proj 1 p))) " + elem + ")))";
  };
  Make fold = [&](const std::string& shape, const std::string& elem) {
    return head + "(fold (lambda ((a f32) (b f32)) (+ a b)) 0.5f32 " + gen(shape, elem) + "))";
  };
  Make fold1 = [&](const std::string& shape, const std::string& elem) {
    return head + "(fold1 (lambda ((a f32) (b f32)) (+ (* a 0.75f32) b)) " + gen(shape, elem) +
           "))";
  };
  Make tuple = [&](const std::string& shape, const std::string& elem) {
    return head +
           "(fold (lambda ((a (tuple f32 f32)) (b (tuple f32 f32))) (tuple (+ (proj 0 a) (proj "
           "0 b)) (- (proj 1 a) (proj 1 b)))) (tuple 0f32 1f32) " +
           gen(shape, "(let ((v " + elem + ")) (tuple v (* v v)))") + "))";
  };
  Make ints = [&](const std::string& shape, const std::string& elem) {
    return head + "(fold (lambda ((a i32) (b i32)) (+ a b)) 3i32 " +
           gen(shape, "(cast i32 (* 8f32 " + elem + "))") + "))";
  };
  std::vector<std::string> texts;
  for (const Make& make : {fold, fold1, tuple, ints}) {
    // In range: the element's own, the row's, both, reversed, 2-d.
    texts.push_back(make("37 40", "(* (! xs (ix j)) (! xs (ix (+ i 3))))"));
    texts.push_back(make("37 40", "(! xs (ix (- 73 (+ i j))))"));
    texts.push_back(make("37 40", "(! m (ix i (+ j 2)))"));
    // Out of range: i + j reaches 60 first in row 21 (a row in lanes, one
    // lane of its group), 74 in row 35 (a row left after the groups).
    texts.push_back(make("37 40", "(! xs (ix (+ i j)))"));
    texts.push_back(make("37 40", "(! ys (ix (+ i j)))"));
    // At every row's first element (index -1), in the last row only, at a
    // fixed index everywhere.
    texts.push_back(make("37 40", "(! xs (ix (- j 1)))"));
    texts.push_back(make("37 40", "(! m (ix i (- 41 j)))"));
    texts.push_back(make("38 40", "(! m (ix (- i 1) j))"));
    texts.push_back(make("37 40", "(! xs (ix (size xs)))"));
    // A read checked per element (i * j) fails first, in row 2, before the
    // affine one (i + j) fails in row 35.
    texts.push_back(make("37 40", "(+ (! xs (ix (+ i j))) (! xs (ix (* i j))))"));
    // Behind an `if`: only the elements it takes read, none out of range.
    texts.push_back(make("37 40", "(if (< (+ i j) 74) (! xs (ix (+ i j))) 0.25f32)"));
  }
  // A combiner that reads (checked per element: it runs for j >= 1 in fold1):
  // in range, and out of range at the first combine (the elements never
  // fail: a fused run may raise a later failure first, docs/language.md).
  for (std::string at : {"59", "60"})
    texts.push_back(head + "(fold1 (lambda ((a f32) (b f32)) (+ a (* b (! ys (ix " + at + "))))) " +
                    gen("37 40", "(! xs (ix (+ i (* j 0))))") + "))");
  // Rank 3: rows (a, b) of 40, an outer index of two components per lane.
  texts.push_back(head +
                  "(fold (lambda ((a f32) (b f32)) (+ a b)) 0.5f32 (generate (ix 5 7 40) "
                  "(lambda ((p (ix 3))) (! m (ix (proj 1 p) (+ (proj 2 p) (proj 0 p))))))))");
  texts.push_back(head + "(fold (lambda ((a f32) (b f32)) (+ a b)) 0.5f32 (generate (ix 5 7 40) "
                         "(lambda ((p (ix 3))) (! m (ix (proj 0 p) (+ (proj 2 p) (* 9 (proj 1 "
                         "p)))))))))");
  std::vector<float> xs(74), m(2 * 50);
  for (size_t k = 0; k < xs.size(); ++k)
    xs[k] = 0.5f + float(k % 13) / 7.0f;
  for (size_t k = 0; k < m.size(); ++k)
    m[k] = 1.0f - float(k % 11) / 5.0f;
  std::vector<float> ys(xs.begin(), xs.begin() + 60);
  std::vector<Array> in = {array_of(xs, {74}), array_of(ys, {60}), array_of(m, {2, 50})};
  for (const std::string& text : texts)
    expect_same_outcome(text, in, order);
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
