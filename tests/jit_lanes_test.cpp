// The jit's lane path (jit/lane_codegen.h, docs/jit.md "Mandelbrot (lanes)"):
// generates whose element function holds a `while` computed W elements at a
// time in vectors. Every program here is compared with the interpreter
// bitwise (fused and unfused): mandelbrot, whiles whose trip count differs per
// lane, tuple state, `if` inside `while`, f64 / i32 / i64 / bool state,
// library calls, NaN-aware min/max and saturating casts in the loop, a `while`
// that would never end in an untaken branch, sizes that are not a multiple of
// W (and 0), ranks 1-3; programs with a form that can fail a check take the
// scalar path and still agree (errors too); the optimised IR of mandelbrot has
// vector arithmetic and the fallback's has none. Folds of float or tuple rows
// run a row per lane (JitRowLanes): n-body, every rank, fold and fold1, empty
// rows, a failed read.
#include <gtest/gtest.h>

#include <tbb/global_control.h>

#include <regex>

#include "fusion/fuse.h"
#include "jit/backend.h"
#include "jit/engine.h"
#include "jit/target_cpu.h"
#include "oracle/compare.h"
#include "tests/cli_util.h"
#include "tests/jit_ir.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {

const Engine& jit_engine() {
  static auto engine = make_jit_engine();
  return *engine;
}

// Bitwise the interpreter's results, or an error of the same kind and message
// start, fused and unfused (and unchecked where the program cannot fail).
void expect_same(const std::string& text, const std::vector<Array>& inputs = {},
                 bool also_unchecked = true) {
  Program p = parse_and_check(text);
  std::vector<Array> oracle;
  std::optional<Error> oracle_error;
  try {
    oracle = interpret(p, inputs);
  } catch (const Error& e) {
    oracle_error = e;
  }
  for (bool checked : {true, false}) {
    if (!checked && (oracle_error || !also_unchecked)) continue;
    for (bool fused : {true, false}) {
      SCOPED_TRACE(std::string(fused ? "fused" : "unfused") + (checked ? "" : " unchecked") + ": " +
                   text);
      try {
        std::vector<Array> got =
            jit_engine().compile(p, CompileOptions{fused, checked})->run(inputs);
        ASSERT_FALSE(oracle_error)
            << "the interpreter failed with " << oracle_error->what() << ", jit did not";
        ASSERT_EQ(got.size(), oracle.size());
        for (size_t i = 0; i < got.size(); ++i)
          EXPECT_TRUE(identical(got[i], oracle[i]))
              << "result " << i << ": "
              << compare_arrays(oracle[i], got[i]).value_or("differs bitwise");
      } catch (const Error& e) {
        ASSERT_TRUE(oracle_error) << "only jit failed: " << e.what();
        EXPECT_EQ(e.kind(), oracle_error->kind()) << e.what();
        EXPECT_EQ(oracle_error->message().rfind(e.message(), 0), 0u)
            << "jit: " << e.message() << "\ninterp: " << oracle_error->message();
      }
    }
  }
}

// examples/mandelbrot.strata on a `rows` x `cols` grid over the same region.
std::string mandelbrot(int64_t rows, int64_t cols, int max_iter = 255) {
  std::string r = std::to_string(rows), c = std::to_string(cols);
  return "(program () (generate (ix " + r + " " + c +
         ") (lambda ((p (ix 2)))"
         " (let ((cx (+ -2f32 (* (cast f32 (proj 1 p)) (/ 3f32 " +
         c +
         "f32))))"
         " (cy (+ -1.5f32 (* (cast f32 (proj 0 p)) (/ 3f32 " +
         r +
         "f32)))))"
         " (proj 0 (while (lambda ((s (tuple i32 f32 f32)))"
         " (let ((x (proj 1 s)) (y (proj 2 s)))"
         " (and (< (proj 0 s) " +
         std::to_string(max_iter) +
         "i32) (<= (+ (* x x) (* y y)) 4f32))))"
         " (lambda ((s (tuple i32 f32 f32))) (let ((x (proj 1 s)) (y (proj 2 s)))"
         " (tuple (+ (proj 0 s) 1i32) (+ (- (* x x) (* y y)) cx) (+ (* (* 2f32 x) y) cy))))"
         " (tuple 0i32 0f32 0f32)))))))";
}

TEST(JitLanes, MandelbrotEqualsTheInterpreter) {
  expect_same(slurp(source_path("examples/mandelbrot.strata")));
  // Rows not a multiple of any vector width, one narrower than a vector, and empty.
  expect_same(mandelbrot(13, 67));
  // Rows ending inside a group (a masked last group) or just after one.
  for (int cols : {17, 20, 36, 100, 129})
    expect_same(mandelbrot(3, cols));
  expect_same(mandelbrot(5, 3));
  expect_same(mandelbrot(40, 1, 1000));
  expect_same(mandelbrot(0, 16));
  expect_same(mandelbrot(4, 0));
}

TEST(JitLanes, MandelbrotIsComputedInVectors) {
  std::string ir = optimised_ir_of(slurp(source_path("examples/mandelbrot.strata")));
  // Vector float arithmetic in the loop, vector (masked) stores of the counts.
  EXPECT_NE(ir.find("fmul <"), std::string::npos) << ir;
  EXPECT_NE(ir.find("fadd <"), std::string::npos) << ir;
  EXPECT_TRUE(ir.find("store <") != std::string::npos ||
              ir.find("llvm.masked.store.v") != std::string::npos)
      << ir;
  // No fused multiply-add, no fast-math flags.
  EXPECT_EQ(ir.find("fma"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("fast"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("contract"), std::string::npos) << ir;
}

// The widest vector of `elem` ("double", "float") in `ir`: the lanes of a
// group, 0 when there is none.
int widest_vector(const std::string& ir, const std::string& elem) {
  std::regex vec("<([0-9]+) x " + elem + ">");
  int widest = 0;
  for (auto it = std::sregex_iterator(ir.begin(), ir.end(), vec); it != std::sregex_iterator();
       ++it)
    widest = std::max(widest, std::stoi((*it)[1]));
  return widest;
}

// A group spans up to 4 registers, independent chains that hide a short
// step's latency (mandelbrot: 4 on AVX-512, where 32 registers hold them),
// and 2 for a step of more than 32 operations, which has independent work
// of its own (jit/lane_codegen.cpp lane_plan; raytrace: faster and 30% less
// compile time).
TEST(JitLanes, LargeStepsSpanTwoRegisters) {
  int bits = jit::target_cpu().vector_bits;
  if (bits < 256) GTEST_SKIP() << "no AVX: " << jit::target_description();
  auto program = [](const std::string& step) {
    return "(program ((xs (array f64 1))) (generate (ix 100) (lambda ((p (ix 1))) (proj 1 (while "
           "(lambda ((s (tuple i64 f64 f64))) (< (proj 0 s) 20)) (lambda ((s (tuple i64 f64 "
           "f64))) (let ((x (proj 1 s)) (y (proj 2 s))) (tuple (+ (proj 0 s) 1) " +
           step + "))) (tuple 0 (cast f64 (proj 0 p)) 1.0))))))";
  };
  std::string short_step = "(+ (* x 0.5) y) (- y (* x 0.25))";
  // 63 operations: a polynomial in x and y, twice.
  std::string poly = "x";
  for (int i = 0; i < 10; ++i)
    poly = "(+ (* " + poly + " x) (* y " + std::to_string(i) + ".5))";
  std::string long_step = poly + " " + "(- y " + poly + ")";
  std::string short_ir = optimised_ir_of(program(short_step));
  std::string long_ir = optimised_ir_of(program(long_step));
  int per_register = bits / 64;
  // 16 registers (AVX2) hold 2 chains of a 3-leaf state, 32 (AVX-512) hold 4.
  EXPECT_EQ(widest_vector(short_ir, "double"), (bits == 512 ? 4 : 2) * per_register) << short_ir;
  EXPECT_EQ(widest_vector(long_ir, "double"), 2 * per_register) << long_ir;
  expect_same(program(long_step));
}

TEST(JitLanes, TripCountsDifferPerLane) {
  // i64 state: element i counts to i (lane k of a group stops k steps after lane 0).
  expect_same("(program () (generate (ix 101) (lambda ((i (ix 1)))"
              " (while (lambda ((s i64)) (< s (proj 0 i))) (lambda ((s i64)) (+ s 1)) 0))))");
  // Collatz steps: i64 and i32 state, `if` inside the `while`, ranks 1 and 3.
  std::string collatz_step = "(while (lambda ((s (tuple i64 i32))) (/= (proj 0 s) 1))"
                             " (lambda ((s (tuple i64 i32)))"
                             "  (let ((n (proj 0 s)))"
                             "   (tuple (if (== (band n 1) 0) (shr n 1) (+ (* 3 n) 1))"
                             "          (+ (proj 1 s) 1i32))))"
                             " (tuple n 0i32))";
  expect_same("(program () (generate (ix 1000) (lambda ((i (ix 1)))"
              " (let ((n (+ (proj 0 i) 1))) (proj 1 " +
              collatz_step + ")))))");
  expect_same("(program () (generate (ix 3 5 19) (lambda ((i (ix 3)))"
              " (let ((n (+ (+ (* (proj 0 i) 1000) (* (proj 1 i) 37)) (+ (proj 2 i) 1))))"
              "  " +
              collatz_step + "))))");
  // A `while` in a `while`'s step: the inner one runs in the lanes whose outer
  // loop still runs, for a trip count of its own (ceil(sqrt(k))).
  expect_same("(program () (generate (ix 2 45) (lambda ((i (ix 2)))"
              " (proj 1 (while (lambda ((s (tuple i64 i64))) (< (proj 0 s) (proj 1 i)))"
              "  (lambda ((s (tuple i64 i64)))"
              "   (tuple (+ (proj 0 s) 1)"
              "          (+ (proj 1 s) (while (lambda ((t i64)) (< (* t t) (proj 0 s)))"
              "                               (lambda ((t i64)) (+ t 1)) (proj 0 i)))))"
              "  (tuple 0 0))))))");
  // Lanes taking either side of an `if`, each side a `while` of its own.
  expect_same("(program () (generate (ix 4 29) (lambda ((i (ix 2)))"
              " (let ((j (+ (* (proj 0 i) 29) (proj 1 i))))"
              "  (if (== (band j 1) 0)"
              "      (while (lambda ((s i64)) (< s j)) (lambda ((s i64)) (+ s 1)) 0)"
              "      (while (lambda ((s i64)) (< s (* 2 j))) (lambda ((s i64)) (+ s 3)) 1))))))");
}

TEST(JitLanes, FloatStateAndPinnedSemantics) {
  // f64 Newton iteration for sqrt(a), stopping on a tolerance or 50 steps;
  // results (f64, i32) per element.
  expect_same("(program () (generate (ix 7 23) (lambda ((i (ix 2)))"
              " (let ((a (+ (cast f64 (+ (* (proj 0 i) 23) (proj 1 i))) 0.5)))"
              "  (while (lambda ((s (tuple f64 i32)))"
              "           (and (< (proj 1 s) 50i32)"
              "                (> (abs (- (* (proj 0 s) (proj 0 s)) a)) 1e-12)))"
              "         (lambda ((s (tuple f64 i32)))"
              "           (tuple (* 0.5 (+ (proj 0 s) (/ a (proj 0 s)))) (+ (proj 1 s) 1i32)))"
              "         (tuple a 0i32))))))");
  // NaN-aware min/max, saturating float -> int casts, signum, floor/round,
  // a library call, a bool leaf in state and result.
  expect_same(
      "(program () (generate (ix 45) (lambda ((i (ix 1)))"
      " (let ((x0 (* (- (cast f32 (proj 0 i)) 22f32) 1e7f32)))"
      "  (while (lambda ((s (tuple f32 i32 bool i64))) (< (proj 1 s) (cast i32 (band (proj 0 i) "
      "7))))"
      "         (lambda ((s (tuple f32 i32 bool i64)))"
      "           (let ((x (proj 0 s))"
      "                 (y (if (== (band (proj 0 i) 3) 0) nanf32 (* x 3.5f32))))"
      "             (tuple (+ (max y x) (min (sin x) y))"
      "                    (+ (proj 1 s) 1i32)"
      "                    (or (proj 2 s) (isnan y))"
      "                    (+ (proj 3 s) (+ (cast i64 (* x 1e20f32)) (cast i64 (round (signum "
      "x))))))))"
      "         (tuple x0 0i32 false 0))))))",
      {}, true);
}

TEST(JitLanes, UntakenSidesDoNotRun) {
  // A `while` that never ends, in lanes that do not take its side of `if` /
  // `and` / `or`: it must not run there (no lane takes it).
  std::string forever = "(proj 0 (while (lambda ((s (tuple i64 bool))) (proj 1 s))"
                        " (lambda ((s (tuple i64 bool))) (tuple (+ (proj 0 s) 1) true))"
                        " (tuple 0 true)))";
  expect_same("(program () (generate (ix 2 33) (lambda ((i (ix 2)))"
              " (let ((n (- (proj 1 i) 100)))"
              "  (if (>= n 0) " +
              forever +
              " (+ n (proj 0 (while (lambda ((s (tuple i64 i64))) (< (proj 1 s) (proj 1 i)))"
              "  (lambda ((s (tuple i64 i64))) (tuple (+ (proj 0 s) (proj 1 s)) (+ (proj 1 s) 1)))"
              "  (tuple 0 0)))))))))");
  expect_same("(program () (generate (ix 37) (lambda ((i (ix 1)))"
              " (let ((n (- (proj 0 i) 100)))"
              "  (tuple (and (>= n 0) (== " +
              forever + " 3)) (or (< n 0) (== " + forever + " 3)))))))");
}

TEST(JitLanes, UniformReadsAndInputs) {
  // `the`, `shape` and `size` of inputs are the same in every lane.
  Array lim = scalar_array<int32_t>(17);
  Array xs = array_of<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  expect_same("(program ((lim (array i32 0)) (xs (array f32 2)))"
              " (generate (ix 9 (size xs)) (lambda ((i (ix 2)))"
              "  (while (lambda ((s i32)) (and (< s (the lim)) (< (cast i64 s) (+ (proj 1 i) "
              "(proj 0 (shape xs))))))"
              "         (lambda ((s i32)) (+ s 1i32)) (cast i32 (proj 0 i))))))",
              {lim, xs});
}

// A read in lane code is a masked gather; checked, a group in which an
// active lane's index is out of range runs again on the scalar path, which
// raises the interpreter's error.
std::string reading_while(const std::string& xs_index) {
  return "(program ((xs (array f32 1)))"
         " (alet ((bs (use (array bool (5) true false true true false))))"
         "  (map (lambda ((c f32)) (proj 0 (while"
         "   (lambda ((s (tuple i32 f32))) (and (< (proj 0 s) 20i32) (< (proj 1 s) 100f32)))"
         "   (lambda ((s (tuple i32 f32)))"
         "     (tuple (+ (proj 0 s) 1i32)"
         "            (+ (* (proj 1 s) (proj 1 s))"
         "               (if (! bs (ix (cast i64 (band (proj 0 s) 3i32)))) c (!! xs " +
         xs_index +
         ")))))"
         "   (tuple 0i32 0f32)))) xs)))";
}

TEST(JitLanes, ReadsAreMaskedGathers) {
  std::vector<float> v;
  for (int i = 0; i < 50; ++i) // bounded orbits (long loops) from element 24 on
    v.push_back(1.45f - float(i) * 0.05f);
  std::vector<Array> xs{array_of<float>(v, {50})};
  std::string in_range = reading_while("(cast i64 (proj 0 s))");
  expect_same(in_range, xs);
  std::string ir = optimised_ir_of(in_range);
  EXPECT_NE(ir.find("fmul <"), std::string::npos) << ir;
  EXPECT_NE(ir.find("llvm.masked.gather"), std::string::npos) << ir;
  // Out of range in some lanes (the elements whose loop runs long enough):
  // the first failing element's error, as the interpreter's.
  expect_same(reading_while("(* (cast i64 (proj 0 s)) 11)"), xs);
  expect_same(reading_while("(- 2 (cast i64 (proj 0 s)))"), xs);
  // Trip counts read from a 2-D input, the read's index from the element's.
  std::vector<int32_t> counts;
  for (int i = 0; i < 6 * 37; ++i)
    counts.push_back((i * 7919) % 61 - 3);
  expect_same("(program ((m (array i32 2))) (generate (shape m) (lambda ((i (ix 2)))"
              " (while (lambda ((s i32)) (< s (! m i))) (lambda ((s i32)) (+ s 2i32)) 0i32))))",
              {array_of<int32_t>(counts, {6, 37})});
  // Row i reads xs (50 elements) from 10 i on: rows 0-4 in range, row 5 out
  // of range in its first group (which hands the rest of its chunk to the
  // checked entry): the interpreter's error, after rows 0-4.
  expect_same("(program ((m (array i32 2)) (xs (array f32 1))) (generate (shape m) (lambda ((i "
              "(ix 2))) (while (lambda ((s i32)) (< s (! m i))) (lambda ((s i32)) (+ s (+ 1i32 "
              "(cast i32 (!! xs (+ (* (proj 0 i) 10) (cast i64 (band s 7i32)))))))) 0i32))))",
              {array_of<int32_t>(counts, {6, 37}), array_of<float>(std::vector<float>(50), {50})});
}

TEST(JitLanes, UnsafeFormsTakeTheScalarPath) {
  // A checked division: the scalar path, same results, and the same error
  // where one is raised.
  std::string dividing = "(program () (generate (ix 40) (lambda ((i (ix 1)))"
                         " (while (lambda ((s i64)) (> s 1)) (lambda ((s i64)) (quot s (- 41 "
                         "(proj 0 i))))"
                         " (+ (proj 0 i) 100)))))";
  expect_same(dividing);
  EXPECT_EQ(optimised_ir_of(dividing).find("x i64>"), std::string::npos);
  // Unchecked, the same division is lane-safe (the divisor is replaced where 0).
  EXPECT_NE(optimised_ir_of(dividing, false).find("x i64>"), std::string::npos);
  std::string by_zero = "(program () (generate (ix 40) (lambda ((i (ix 1)))"
                        " (while (lambda ((s i64)) (> s 1)) (lambda ((s i64)) (quot s (- 30 "
                        "(* 2 (proj 0 i)))))"
                        " (+ (proj 0 i) 100)))))";
  expect_same(by_zero);
}

// Folds of rows whose combiner does not reorder exactly (floats, tuples)
// run W rows at a time, a row per lane, each lane folding its row left to
// right as the scalar code does (jit/fold_codegen.h fold_rows_in_lanes).

// Bodies for examples/nbody.strata: n values per input, deterministic, varied.
std::vector<Array> bodies(int64_t n) {
  std::vector<Array> in;
  for (int a = 0; a < 4; ++a) {
    std::vector<float> v;
    for (int64_t i = 0; i < n; ++i)
      v.push_back(float((i * 7919 + a * 104729) % 1000) / 997.0f + (a == 3 ? 0.5f : 0.0f));
    in.push_back(array_of<float>(v, {n}));
  }
  return in;
}

TEST(JitRowLanes, NbodyEqualsTheInterpreter) {
  std::string nbody = slurp(source_path("examples/nbody.strata"));
  // Row counts below one register, exactly one, one past, several with a
  // rest, and none.
  for (int64_t n : {0, 1, 15, 16, 17, 33, 100})
    expect_same(nbody, bodies(n));
}

TEST(JitRowLanes, NbodyIsComputedInVectors) {
  std::string ir = optimised_ir_of(slurp(source_path("examples/nbody.strata")));
  // The division and square root of a contribution, for a vector of rows.
  EXPECT_NE(ir.find("fdiv <"), std::string::npos) << ir;
  EXPECT_NE(ir.find("llvm.sqrt.v"), std::string::npos) << ir;
  EXPECT_NE(ir.find("fadd <"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("fma"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("fast"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("contract"), std::string::npos) << ir;
}

TEST(JitRowLanes, FoldsOfEveryShapeEqualTheInterpreter) {
  std::vector<float> v;
  for (int i = 0; i < 5 * 7 * 9; ++i)
    v.push_back(float((i * 31) % 97) * 0.37f - 11.0f);
  Array m = array_of<float>(std::vector<float>(v.begin(), v.begin() + 37 * 8), {37, 8});
  Array cube = array_of<float>(v, {5, 7, 9});
  // A float sum of each row of a matrix (a read at the element's index),
  // fold and fold1; an empty row of each.
  expect_same("(program ((m (array f32 2))) (fold + 0.5f32 m))", {m});
  expect_same("(program ((m (array f32 2))) (fold1 + m))", {m});
  expect_same("(program ((m (array f32 2))) (fold * 1f32 (generate (ix 40 0)"
              " (lambda ((i (ix 2))) (! m (ix 0 0))))))",
              {m});
  // Rank 3: the rows' outer index has two components.
  expect_same("(program ((c (array f32 3))) (fold1 min (map (lambda ((x f32)) (* x x)) c)))",
              {cube});
  // f64, and a tuple with an integer and a bool leaf: the combiner's `if`
  // and `or` run in every lane under masks.
  expect_same("(program ((c (array f32 3))) (fold (lambda ((a (tuple f64 i32 bool))"
              " (b (tuple f64 i32 bool)))"
              " (tuple (if (proj 2 b) (+ (proj 0 a) (proj 0 b)) (- (proj 0 a) (proj 0 b)))"
              "  (max (proj 1 a) (proj 1 b)) (or (proj 2 a) (proj 2 b))))"
              " (tuple 0f64 -5i32 false)"
              " (map (lambda ((x f32)) (tuple (/ (cast f64 x) 3f64) (cast i32 x) (< x 0f32))) c)))",
              {cube});
  // A row of a generate whose element reads a uniform (the same in every
  // lane: the row position) and a per-lane element.
  expect_same("(program ((m (array f32 2))) (fold (lambda ((a f32) (b f32)) (- a b)) 0f32"
              " (generate (ix 37 37) (lambda ((i (ix 2)))"
              "  (* (!! m (proj 1 i)) (! m (ix (proj 0 i) (mod (proj 1 i) 8))))))))",
              {m});
}

// foldseg: W segments at a time, a segment per lane, lanes whose segment
// ended keeping their accumulator; groups whose longest segment is over 4
// times their mean go one segment at a time.
std::string foldseg_program(const std::string& type, const std::string& f, const std::string& z,
                            const std::string& input) {
  return "(program ((xs (array f32 2)) (segs (array i64 1))) (foldseg (lambda ((a " + type +
         ") (b " + type + ")) " + f + ") " + z + " " + input + " segs))";
}

// The lanes' outer indices (a row's position in the rows' shape, lane by
// lane): each row's result encodes its outer index, for extents below, at
// and above the lanes (16 x f32), and one of 1; foldseg's units (a row and a
// segment) the same way.
TEST(JitRowLanes, OuterIndicesOfEveryExtentEqualTheInterpreter) {
  for (auto [b, c] : std::vector<std::pair<int, int>>{
           {1, 1}, {1, 17}, {2, 3}, {3, 15}, {16, 1}, {17, 16}, {5, 40}, {33, 2}}) {
    std::string shape = "3 " + std::to_string(b) + " " + std::to_string(c) + " 4";
    expect_same("(program () (fold (lambda ((a f32) (x f32)) (- (* a 0.5f32) x)) 0.25f32"
                " (generate (ix " +
                shape +
                ") (lambda ((i (ix 4))) (cast f32 (+ (+ (* 10000"
                " (proj 0 i)) (* 100 (proj 1 i))) (+ (proj 2 i) (* 1000000 (proj 3 i)))))))))");
  }
  for (int segments : {1, 3, 17}) {
    std::vector<int64_t> lengths;
    for (int k = 0; k < segments; ++k)
      lengths.push_back(2 + k % 3);
    int64_t n = 0;
    for (int64_t l : lengths)
      n += l;
    std::vector<float> v;
    for (int64_t i = 0; i < 19 * n; ++i)
      v.push_back(float(i % 89) * 0.5f);
    expect_same(foldseg_program("f32", "(- (* a 0.5f32) b)", "0.25f32", "xs"),
                {array_of<float>(v, {19, n}), array_of<int64_t>(lengths)});
  }
}

TEST(JitRowLanes, AFailedReadIsTheInterpretersError) {
  std::vector<float> v;
  for (int i = 0; i < 64; ++i)
    v.push_back(float(i) * 0.5f);
  Array xs = array_of<float>(v, {64});
  // Row i reads xs at i + j: rows from 33 on go out of range at some j. The
  // first error in the scalar order is row 33's (j = 31); the lanes of rows
  // 32..47 fail first at j = 17 (row 47), and the checked rows entry, run
  // from row 32, raises row 33's.
  for (int64_t rows : {34, 48, 70})
    expect_same("(program ((xs (array f32 1))) (fold + 0f32 (generate (ix " + std::to_string(rows) +
                    " 32) (lambda ((i (ix 2))) (! xs (ix (+ (proj 0 i) (proj 1 i))))))))",
                {xs});
  // The uniform read (the row position alone) out of range: every lane fails at once.
  expect_same("(program ((xs (array f32 1))) (fold + 0f32 (generate (ix 20 70)"
              " (lambda ((i (ix 2))) (! xs (ix (proj 1 i)))))))",
              {xs});
}

TEST(JitRowLanes, FoldsegEqualsTheInterpreter) {
  // Lengths: empty segments, one long one among short ones (a group that
  // goes one by one), and a group of equal ones.
  std::vector<int64_t> lengths;
  for (int k = 0; k < 70; ++k)
    lengths.push_back(k == 20 ? 300 : (k * 7) % 5);
  int64_t n = 0;
  for (int64_t l : lengths)
    n += l;
  std::vector<float> v;
  for (int64_t i = 0; i < 3 * n; ++i)
    v.push_back(float((i * 37) % 101) * 0.73f - 30.0f);
  std::vector<Array> in{array_of<float>(v, {3, n}), array_of<int64_t>(lengths)};
  expect_same(foldseg_program("f32", "(- a b)", "0.5f32", "xs"), in);
  expect_same(foldseg_program("(tuple f32 f64)",
                              "(tuple (+ (proj 0 a) (proj 0 b)) (* (proj 1 a) (proj 1 b)))",
                              "(tuple 0f32 1f64)",
                              "(map (lambda ((x f32)) (tuple x (/ (cast f64 x) 7f64))) xs)"),
              in);
  // Every segment the same length: every group in lanes.
  std::vector<int64_t> even(40, 6);
  std::vector<Array> in2{
      array_of<float>(std::vector<float>(v.begin(), v.begin() + 2 * 240), {2, 240}),
      array_of<int64_t>(even)};
  expect_same(foldseg_program("f32", "(- a b)", "0.5f32", "xs"), in2);
  // A read out of range in one lane's segment: the interpreter's error.
  expect_same(foldseg_program("f32", "(+ a b)", "0f32",
                              "(generate (shape xs) (lambda ((i (ix 2)))"
                              " (!! xs (* (proj 1 i) (+ 2 (proj 0 i))))))"),
              in2);
}

TEST(JitLanes, BitwiseIdenticalForAnyThreadCount) {
  // Mandelbrot's lanes, and n-body's rows in lanes (chunks of whole groups).
  std::vector<std::pair<Program, std::vector<Array>>> cases;
  cases.emplace_back(parse_and_check(mandelbrot(97, 203)), std::vector<Array>{});
  cases.emplace_back(parse_and_check(slurp(source_path("examples/nbody.strata"))), bodies(1000));
  for (const auto& [p, in] : cases) {
    std::vector<Array> one;
    {
      tbb::global_control gc(tbb::global_control::max_allowed_parallelism, 1);
      one = jit_engine().compile(p, {})->run(in);
    }
    for (int threads : {2, 8}) {
      tbb::global_control gc(tbb::global_control::max_allowed_parallelism, size_t(threads));
      std::vector<Array> got = jit_engine().compile(p, {})->run(in);
      ASSERT_EQ(got.size(), one.size());
      for (size_t r = 0; r < got.size(); ++r)
        EXPECT_TRUE(identical(got[r], one[r])) << threads << " threads, result " << r;
    }
  }
}

} // namespace
} // namespace strata::test
