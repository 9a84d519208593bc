// The batch scalar compiler of the tbb engine against the interpreter: the
// function of a `generate` or `map`, compiled to batch instructions and run
// over batches of lanes, gives bitwise the interpreter's elements and raises
// the interpreter's first error.
#include <gtest/gtest.h>

#include "oracle/compare.h"
#include "tbb/scalar_compiler.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {
using namespace tbbe;

// Runs the function of the program's top-level generate/map with the batch
// compiler; `inputs` are the program's parameters (array ids in order).
Array run_batched(const Program& p, const std::vector<Array>& inputs) {
  ArrayScope scope;
  ArrayTable table;
  for (size_t i = 0; i < p.params.size(); ++i) {
    scope[p.params[i].name] = {int(i), p.params[i].type};
    table.push_back(&inputs[i]);
  }
  const Acc& body = *p.body;
  const Lambda* f = nullptr;
  const Array* source = nullptr;
  Shape shape;
  if (const auto* g = std::get_if<ac::Generate>(&body.node)) {
    f = &g->f;
    // The shape is a closed expression: evaluate it with the interpreter.
    Program shape_prog{{}, p.params, make_acc(ac::Unit{g->shape}), p.loc, {}};
    check_program(shape_prog);
    Array sh = interpret(shape_prog, inputs)[0];
    for (size_t l = 0; l < sh.num_leaves(); ++l)
      shape.push_back(sh.read(l, 0).get<int64_t>());
  } else {
    const auto& m = std::get<ac::Map>(body.node);
    f = &m.f;
    source = &inputs[0];
    shape = source->shape();
  }
  ScalarFunction fn = compile_function(*f, scope);
  Frame frame(fn.registers(), table);
  fn.prepare(frame);
  Array out = Array::allocate(body.type.elem(), shape);
  Index ix(shape.size(), 0);
  for (int64_t start = 0; start < out.size(); start += kBatch) {
    int count = int(std::min<int64_t>(kBatch, out.size() - start));
    for (int lane = 0; lane < count; ++lane) {
      int64_t i = start + lane;
      if (source) {
        for (size_t l = 0; l < fn.params()[0].regs.size(); ++l) {
          Scalar v = source->read(l, i);
          std::memcpy(frame.reg<std::byte>(fn.params()[0].regs[l]) +
                          size_t(lane) * scalar_size(v.kind()),
                      v.data(), scalar_size(v.kind()));
        }
      } else {
        Index at = from_linear(shape, i);
        for (size_t k = 0; k < at.size(); ++k)
          frame.reg<int64_t>(fn.params()[0].regs[k])[lane] = at[k];
      }
    }
    run_lanes_in_order(fn, frame, count);
    for (int lane = 0; lane < count; ++lane)
      for (size_t l = 0; l < out.num_leaves(); ++l) {
        ScalarKind k = out.leaf_kind(l);
        out.write(l, start + lane,
                  Scalar::from_bytes(k, frame.reg<std::byte>(fn.result().regs[l]) +
                                            size_t(lane) * scalar_size(k)));
      }
  }
  return out;
}

void expect_same(const std::string& text, const std::vector<Array>& inputs = {}) {
  Program p = parse_and_check(text);
  Array expected = interpret(p, inputs)[0];
  Array actual = run_batched(p, inputs);
  EXPECT_TRUE(identical(expected, actual))
      << text << "\n"
      << compare_arrays(expected, actual).value_or("(bitwise)");
}

void expect_same_error(const std::string& text, const std::vector<Array>& inputs = {}) {
  Program p = parse_and_check(text);
  std::string expected, actual;
  try {
    interpret(p, inputs);
  } catch (const Error& e) {
    expected = e.what();
  }
  try {
    run_batched(p, inputs);
  } catch (const Error& e) {
    actual = e.what();
  }
  EXPECT_FALSE(actual.empty()) << text;
  // The interpreter adds the element being computed; the engine's kernel
  // driver adds that context, not the scalar code.
  EXPECT_TRUE(expected.starts_with(actual)) << expected << "\n" << actual;
}

TEST(TbbScalar, ArithmeticOverManyBatches) {
  expect_same("(program () (generate (ix 1000) (lambda ((i (ix 1)))"
              "  (let ((x (proj 0 i))) (+ (* x x) (quot x 7))))))");
  expect_same("(program () (generate (ix 33 17) (lambda ((i (ix 2)))"
              "  (cast f32 (- (proj 0 i) (* 3 (proj 1 i)))))))");
}

TEST(TbbScalar, EveryFloatFunction) {
  for (const char* op : {"sqrt", "exp", "log", "sin", "cos", "tan", "asin", "acos", "atan", "sinh",
                         "cosh", "tanh", "floor", "ceil", "round", "trunc", "neg", "abs", "signum"})
    expect_same(std::string("(program () (generate (ix 300) (lambda ((i (ix 1)))"
                            "  (") +
                op + " (- (/ (cast f64 (proj 0 i)) 50.0) 3.0)))))");
  expect_same("(program () (generate (ix 300) (lambda ((i (ix 1))) (let ((x (cast f32 (proj 0 i))))"
              "  (tuple (atan2 x 3f32) (pow 1.01f32 x) (min x nanf32) (isnan (/ x 0f32)) (isinf (/ "
              "x 0f32)))))))");
}

TEST(TbbScalar, IntegerCornerCases) {
  expect_same(
      "(program () (generate (ix 512) (lambda ((i (ix 1))) (let ((x (cast i8 (proj 0 i))))"
      "  (tuple (+ x 100i8) (* x x) (div x -3i8) (mod x -3i8) (rem x 5i8) (shl x x) (shr x 3i8)"
      "         (popcount x) (clz x) (ctz x) (bxor x 85i8) (bnot x) (abs x))))))");
  expect_same("(program () (generate (ix 400) (lambda ((i (ix 1)))"
              "  (let ((x (* (cast f64 (- (proj 0 i) 200)) 1e17)))"
              "    (tuple (cast i32 x) (cast u8 x) (cast u64 x) (cast bool x) (cast i64 (cast f32 "
              "x)))))))");
}

TEST(TbbScalar, ControlFlowRunsOnlyTheTakenLanes) {
  // The untaken branch would divide by zero.
  expect_same("(program () (generate (ix 700) (lambda ((i (ix 1))) (let ((x (mod (proj 0 i) 5)))"
              "  (if (== x 0) 0 (quot 100 x))))))");
  expect_same("(program () (generate (ix 700) (lambda ((i (ix 1))) (let ((x (mod (proj 0 i) 3)))"
              "  (tuple (and (/= x 0) (> (quot 9 x) 4)) (or (== x 0) (> (quot 9 x) 4)))))))");
}

TEST(TbbScalar, WhileLoopsWithDifferentTripCountsPerLane) {
  // Mandelbrot-like: each lane leaves the loop at its own iteration.
  expect_same("(program () (generate (ix 24 32) (lambda ((p (ix 2)))"
              "  (let ((cx (+ -2f32 (* (cast f32 (proj 1 p)) 0.09375f32))) (cy (+ -1.5f32 (* (cast "
              "f32 (proj 0 p)) 0.125f32))))"
              "    (proj 0 (while (lambda ((s (tuple i32 f32 f32)))"
              "                     (and (< (proj 0 s) 255i32) (<= (+ (* (proj 1 s) (proj 1 s)) (* "
              "(proj 2 s) (proj 2 s))) 4f32)))"
              "                   (lambda ((s (tuple i32 f32 f32)))"
              "                     (let ((x (proj 1 s)) (y (proj 2 s)))"
              "                       (tuple (+ (proj 0 s) 1i32) (+ (- (* x x) (* y y)) cx) (+ (* "
              "(* 2f32 x) y) cy))))"
              "                   (tuple 0i32 0f32 0f32)))))))");
}

// Found by the harness: the next state reuses a component of the old one,
// so the state must be replaced all at once.
TEST(TbbScalar, WhileStepReadsTheOldState) {
  expect_same("(program () (generate (ix 300) (lambda ((x (ix 1))) (proj 1 (while"
              "  (lambda ((s (ix 2))) (< (proj 0 s) (mod (proj 0 x) 5)))"
              "  (lambda ((s (ix 2))) (tuple (+ (proj 0 s) 1) (proj 0 s))) (tuple 0 7))))))");
}

TEST(TbbScalar, ArrayReadsShapeSizeTheAndIndexConversions) {
  Array xs = array_of<int32_t>({5, 6, 7, 8, 9, 10}, {2, 3});
  Array one = scalar_array<double>(2.5);
  expect_same(
      "(program ((xs (array i32 2)) (s (array f64 0))) (generate (ix 6 2) (lambda ((i (ix 2)))"
      "  (let ((j (proj 0 i)))"
      "    (tuple (! xs (from-index (shape xs) j)) (!! xs (- (size xs) (+ j 1))) (the s)"
      "           (to-index (ix 6 2) i) (proj 1 (ignore 2)))))))",
      {xs, one});
}

TEST(TbbScalar, MapOverTuples) {
  Array xs = Array::allocate(
      Type::tuple({Type::scalar(ScalarKind::I32), Type::scalar(ScalarKind::F64)}), {300});
  for (int64_t i = 0; i < 300; ++i) {
    xs.write(0, i, Scalar::make<int32_t>(int32_t(i * 7919)));
    xs.write(1, i, Scalar::make<double>(double(i) / 3));
  }
  expect_same("(program ((xs (array (tuple i32 f64) 1))) (map (lambda ((p (tuple i32 f64)))"
              "  (tuple (proj 1 p) (max (cast f64 (proj 0 p)) (proj 1 p)))) xs))",
              {xs});
}

TEST(TbbScalar, FirstErrorInElementOrderWins) {
  // Lane kBatch+44 (second batch) divides by zero; lane 2*kBatch+88 reads
  // out of bounds: the interpreter stops at the first, and so must the batches.
  Array xs = array_of<int64_t>({1, 2, 3});
  std::string zero = std::to_string(kBatch + 44), bad = std::to_string(2 * kBatch + 88);
  expect_same_error("(program ((xs (array i64 1))) (generate (ix " + std::to_string(3 * kBatch) +
                        ") (lambda ((i (ix 1)))"
                        "  (let ((j (proj 0 i)))"
                        "    (if (== j " +
                        bad + ") (! xs (ix 9)) (quot 1 (- j " + zero + ")))))))",
                    {xs});
  // Within one lane, evaluation order decides: the read comes first.
  expect_same_error("(program ((xs (array i64 1))) (generate (ix 10) (lambda ((i (ix 1)))"
                    "  (+ (!! xs (proj 0 i)) (quot 1 (- (proj 0 i) 5))))))",
                    {xs});
}

} // namespace
} // namespace strata::test
