// Contractions (fusion/contraction.h, parallel/contraction.h): the recogniser
// finds matrix products, matrix-vector products and batched dot products and
// nothing else; the tiled executor gives BITWISE the sequential fold's result
// (acc = acc + x * y for k in order, from the seed or the first product) on
// every operand layout, at sizes around every tile edge (MR rows, NR columns,
// KC blocks), with NaN, infinities and signed zeros among the values; it
// refuses reads out of range; and the tbb and jit engines take it and agree
// with the interpreter bitwise.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>

#include "fusion/contraction.h"
#include "fusion/fuse.h"
#include "oracle/compare.h"
#include "parallel/contraction.h"
#include "tests/test_util.h"
#if STRATA_HAVE_TBB
#include "tbb/engine.h"
#endif
#if STRATA_HAVE_JIT
#include "jit/engine.h"
#endif

namespace strata::test {
namespace {

const char* kMatmul = R"((program ((a (array f32 2)) (b (array f32 2)))
  (alet ((bt (backpermute (ix (proj 1 (shape b)) (proj 0 (shape b)))
                          (lambda ((i (ix 2))) (ix (proj 1 i) (proj 0 i))) b))
         (arep (replicate (spec all (proj 1 (shape b)) all) a))
         (brep (replicate (spec (proj 0 (shape a)) all all) bt)))
    (fold (lambda (s p) (+ s p)) 0.25f32 (zipwith * arep brep)))))";

std::optional<Contraction> contraction_of(const std::string& text) {
  Program p = parse_and_check(text);
  KernelGraph g = build_kernel_graph(p);
  std::optional<Contraction> found;
  for (const Kernel* k : compute_kernels(g))
    if (auto* f = std::get_if<kn::Fold>(&k->body)) found = find_contraction(g, *f);
  return found;
}

TEST(Contraction, RecognisesProductsOfTwoArraysAtLoopIndices) {
  auto mm = contraction_of(kMatmul);
  ASSERT_TRUE(mm);
  EXPECT_EQ(mm->kind, ScalarKind::F32);
  EXPECT_EQ(mm->x.vars, (std::vector<int>{0, 2})); // a[i, k]
  EXPECT_EQ(mm->y.vars, (std::vector<int>{2, 1})); // b[k, j], through the transpose
  auto mv =
      contraction_of("(program ((m (array f64 2)) (v (array f64 1)))"
                     " (fold + 0.0 (zipwith * m (replicate (spec (proj 0 (shape m)) all) v))))");
  ASSERT_TRUE(mv);
  EXPECT_EQ(mv->x.vars, (std::vector<int>{0, 1}));
  EXPECT_EQ(mv->y.vars, (std::vector<int>{1}));
  auto dots = contraction_of("(program ((x (array f32 3)) (y (array f32 3)))"
                             " (fold + 0f32 (zipwith (lambda (a b) (* b a)) x y)))");
  ASSERT_TRUE(dots); // (* b a): the operands swap
  EXPECT_EQ(dots->x.array, 1);
  EXPECT_EQ(dots->y.array, 0);
  // Integers: wrapping + in either operand order.
  auto ints = contraction_of("(program ((x (array i64 2)) (y (array i64 2)))"
                             " (fold (lambda (s p) (+ p s)) 0 (zipwith * x y)))");
  ASSERT_TRUE(ints);
  EXPECT_EQ(ints->kind, ScalarKind::I64);
}

TEST(Contraction, LeavesEverythingElseToTheGeneralFold) {
  for (const char* text : {
           // the accumulator second: the operand order would change
           "(program ((x (array f32 2)) (y (array f32 2))) (fold (lambda (s p) (+ p s)) 0f32 "
           "(zipwith * x y)))",
           // not a product, not a sum, 16-bit integers, a shifted index, one array
           "(program ((x (array f32 2)) (y (array f32 2))) (fold + 0f32 (zipwith - x y)))",
           "(program ((x (array f32 2)) (y (array f32 2))) (fold max 0f32 (zipwith * x y)))",
           "(program ((x (array i16 2)) (y (array i16 2))) (fold + 0i16 (zipwith * x y)))",
           "(program ((x (array f32 2))) (fold + 0f32 (generate (shape x) (lambda (i)"
           " (* (! x i) (! x (ix (proj 0 i) (min (+ (proj 1 i) 1) 0))))))))",
           "(program ((x (array f32 2))) (fold + 0f32 (map (lambda (v) (* v 2f32)) x)))",
           // a rank-1 input: one dot product, the declared order's lanes matter
           "(program ((x (array f32 1)) (y (array f32 1))) (fold + 0f32 (zipwith * x y)))",
           // a diagonal read: the same loop variable twice
           "(program ((x (array f32 2)) (y (array f32 2))) (fold + 0f32 (generate (shape x) "
           "(lambda (i)"
           " (* (! x i) (! y (ix (proj 1 i) (proj 1 i))))))))",
           // an unused binding that can fail: the tiles would skip its check
           "(program ((x (array f32 2)) (y (array f32 2)) (z (array f32 1))) (fold + 0f32"
           " (generate (shape x) (lambda (i) (let ((u (!! z 99)) (a (! x i)) (b (! y i)))"
           " (* a b))))))",
           "(program ((x (array f32 2)) (y (array f32 2)) (z (array f32 2))) (fold + 0f32"
           " (generate (shape x) (lambda (i) (let ((u (! z i))) (* (! x i) (! y i)))))))",
           // a component of a tuple array: not a whole element (its own leaf)
           "(program ((x (array f32 2)) (y (array (tuple f32 f32) 2))) (fold + 0f32 (generate "
           "(shape x) (lambda (i) (* (! x i) (proj 1 (! y i)))))))",
       })
    EXPECT_FALSE(contraction_of(text)) << text;
}

// ------------------------------------------------------------ the executor

std::string text(const Shape& sh) {
  std::string out = "(";
  for (size_t d = 0; d < sh.size(); ++d)
    out += (d ? " " : "") + std::to_string(sh[d]);
  return out + ")";
}

template <class T> std::vector<T> values(int64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  if constexpr (std::is_integral_v<T>) {
    // The whole range: products and sums wrap.
    std::uniform_int_distribution<T> d(std::numeric_limits<T>::min(),
                                       std::numeric_limits<T>::max());
    std::vector<T> v(static_cast<size_t>(n));
    for (T& x : v)
      x = d(rng);
    return v;
  } else {
    std::uniform_real_distribution<T> d(-2, 2);
    std::vector<T> v(static_cast<size_t>(n));
    for (T& x : v)
      x = d(rng);
    // A few special values: the lanes they reach must match the scalar fold.
    const T special[] = {std::numeric_limits<T>::quiet_NaN(),
                         std::numeric_limits<T>::infinity(),
                         -std::numeric_limits<T>::infinity(),
                         T(-0.0),
                         T(0.0),
                         std::numeric_limits<T>::denorm_min()};
    // Six elements, spread out: most results stay finite, so the comparison
    // sees real sums, and a few rows and columns meet each special value.
    if (v.size() >= 50)
      for (size_t s = 0; s < 6; ++s)
        v[(s + 1) * v.size() / 7] = special[s];
    return v;
  }
}

// Strata's + and * (integers wrap).
template <class T> T add(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return T(std::make_unsigned_t<T>(a) + std::make_unsigned_t<T>(b));
  else
    return a + b;
}
template <class T> T mul(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return T(std::make_unsigned_t<T>(a) * std::make_unsigned_t<T>(b));
  else
    return a * b;
}

// The sequential fold the interpreter runs, one output element at a time.
template <class T>
std::vector<T> reference(const parallel::ContractionRun& r, const T* x, const T* y) {
  size_t rank = r.loop.size();
  Shape outer(r.loop.begin(), r.loop.end() - 1);
  std::vector<T> out(size_t(shape_size(outer)));
  auto at = [&](const parallel::ContractionInput& in, const Shape& ix) {
    int64_t off = 0;
    for (size_t d = 0; d < in.shape.size(); ++d)
      off = off * in.shape[d] + ix[size_t(in.vars[d])];
    return off;
  };
  Shape ix(rank, 0);
  for (int64_t o = 0; o < int64_t(out.size()); ++o) {
    int64_t rest = o;
    for (size_t v = rank - 1; v-- > 0;) {
      ix[v] = rest % r.loop[v];
      rest /= r.loop[v];
    }
    T acc{};
    if (r.seed) std::memcpy(&acc, r.seed, sizeof(T));
    for (int64_t k = 0; k < r.loop.back(); ++k) {
      ix[rank - 1] = k;
      T p = mul(x[at(r.x, ix)], y[at(r.y, ix)]);
      acc = (k == 0 && !r.seed) ? p : add(acc, p);
    }
    out[size_t(o)] = acc;
  }
  return out;
}

struct Layout {
  const char* what;
  std::vector<int> xvars, yvars; // loop variable per dimension
};

template <class T>
void expect_bitwise(const Layout& l, const Shape& loop, bool seeded, uint32_t s) {
  auto shape_of = [&](const std::vector<int>& vars, int64_t pad) {
    Shape sh;
    for (int v : vars)
      sh.push_back(loop[size_t(v)] + pad);
    return sh;
  };
  // x is larger than the loop in every dimension (a zipwith's intersection).
  Shape xs = shape_of(l.xvars, s % 2), ys = shape_of(l.yvars, 0);
  std::vector<T> x = values<T>(shape_size(xs), s), y = values<T>(shape_size(ys), s + 1);
  T seed = std::is_integral_v<T> ? T(7) : T(0.25);
  parallel::ContractionRun run{kind_of<T>, {x.data(), xs, l.xvars}, {y.data(), ys, l.yvars}, loop,
                               nullptr,    seeded ? &seed : nullptr};
  std::vector<T> want = reference<T>(run, x.data(), y.data());
  std::vector<T> got(want.size(), T(-7));
  run.out = got.data();
  ASSERT_TRUE(parallel::run_contraction(run));
  Shape outer(loop.begin(), loop.end() - 1);
  std::optional<std::string> diff = compare_bitwise(array_of(want, outer), array_of(got, outer));
  ASSERT_FALSE(diff) << l.what << " loop " << text(loop) << (seeded ? " seeded: " : " fold1: ")
                     << *diff;
}

const std::vector<Layout>& layouts() {
  static const std::vector<Layout> all = {
      {"a[i,k] * b[k,j]", {0, 2}, {2, 1}},
      {"b[k,j] * a[i,k]", {2, 1}, {0, 2}},
      {"a[k,i] * b[k,j] (a transposed)", {2, 0}, {2, 1}},
      {"a[i,k] * b[j,k] (b transposed)", {0, 2}, {1, 2}},
      {"x[i,j,k] * y[i,j,k] (batched dots)", {0, 1, 2}, {0, 1, 2}},
      {"a[i,k] * a'[i,k] (the same for every j)", {0, 2}, {0, 2}},
  };
  return all;
}

TEST(Contraction, TilesGiveTheSequentialFoldBitwise) {
  uint32_t s = 1;
  for (const Layout& l : layouts())
    for (Shape loop : {Shape{1, 1, 1}, Shape{7, 17, 2}, Shape{6, 32, 256}, Shape{13, 33, 257},
                       Shape{5, 40, 600}, Shape{2, 3, 0}})
      for (bool seeded : {true, false}) {
        if (!seeded && loop.back() == 0) continue;
        expect_bitwise<float>(l, loop, seeded, s++);
        expect_bitwise<double>(l, loop, seeded, s++);
        expect_bitwise<int32_t>(l, loop, seeded, s++);
        expect_bitwise<int64_t>(l, loop, seeded, s++);
      }
}

TEST(Contraction, MatrixVectorAndBatchedLayouts) {
  uint32_t s = 100;
  for (bool seeded : {true, false}) {
    expect_bitwise<float>({"m[j,k] * v[k]", {0, 1}, {1}}, {45, 300}, seeded, s++);
    expect_bitwise<float>({"v[k] * m[k,j]", {1}, {1, 0}}, {45, 300}, seeded, s++);
    expect_bitwise<double>({"a[b,i,k] * b[b,k,j]", {0, 1, 3}, {0, 3, 2}}, {3, 7, 19, 40}, seeded,
                           s++);
    expect_bitwise<float>({"a[b,i,k] * b[k,j] (shared)", {0, 1, 3}, {3, 2}}, {2, 9, 35, 70}, seeded,
                          s++);
    expect_bitwise<float>({"x[b,c,j,k] * y[c,k]", {0, 1, 2, 3}, {1, 3}}, {2, 3, 20, 9}, seeded,
                          s++);
  }
}

TEST(Contraction, RefusesReadsOutOfRangeAndWritesNothing) {
  std::vector<float> a(6 * 4), b(4 * 5);
  std::vector<float> out(6 * 6, 3.0f);
  float seed = 0;
  // The loop's j extent 6 is past b's 5 columns.
  parallel::ContractionRun run{ScalarKind::F32,
                               {a.data(), {6, 4}, {0, 2}},
                               {b.data(), {4, 5}, {2, 1}},
                               {6, 6, 4},
                               out.data(),
                               &seed};
  EXPECT_FALSE(parallel::run_contraction(run));
  for (float v : out)
    EXPECT_EQ(v, 3.0f);
}

// ------------------------------------------------------------ the engines

// An i32 matrix product: wrapping sums of wrapping products.
std::string int_matmul() {
  std::string t = kMatmul;
  for (auto [from, to] : {std::pair<std::string, std::string>{"0.25f32", "7i32"}, {"f32", "i32"}})
    for (size_t at = t.find(from); at != std::string::npos; at = t.find(from, at + to.size()))
      t.replace(at, from.size(), to);
  return t;
}

void expect_engine_takes_int_matmul(const Engine& engine) {
  Program p = parse_and_check(int_matmul());
  CompileOptions co;
  std::unique_ptr<Executable> exe = engine.compile(p, co);
  std::vector<Array> in = {array_of(values<int32_t>(30 * 70, 3), {30, 70}),
                           array_of(values<int32_t>(70 * 41, 4), {70, 41})};
  uint64_t before = parallel::contractions_run();
  std::vector<Array> got = exe->run(in);
  EXPECT_GT(parallel::contractions_run(), before) << engine.name();
  EXPECT_TRUE(identical(got[0], interpret(p, in)[0])) << engine.name();
}

void expect_engine_takes_it(const Engine& engine) {
  expect_engine_takes_int_matmul(engine);
  Program p = parse_and_check(kMatmul);
  CompileOptions co;
  co.order = ReductionOrder::blocked();
  std::unique_ptr<Executable> exe = engine.compile(p, co);
  InterpreterOptions io;
  io.order = co.order;
  for (Shape mkn : {Shape{37, 100, 45}, Shape{64, 64, 64}, Shape{6, 120, 32}}) {
    std::vector<float> av = values<float>(mkn[0] * mkn[1], 7),
                       bv = values<float>(mkn[1] * mkn[2], 8);
    std::vector<Array> in = {array_of(av, {mkn[0], mkn[1]}), array_of(bv, {mkn[1], mkn[2]})};
    uint64_t before = parallel::contractions_run();
    std::vector<Array> got = exe->run(in);
    EXPECT_GT(parallel::contractions_run(), before) << engine.name() << ": the general fold ran";
    std::optional<std::string> diff = compare_bitwise(interpret(p, in, io)[0], got[0]);
    EXPECT_FALSE(diff) << engine.name() << " " << text(mkn) << ": " << *diff;
  }
  // A read out of range (b has fewer rows than a has columns): not the fast
  // path, and the interpreter's error.
  std::vector<Array> bad = {array_of(values<float>(40 * 30, 1), {40, 30}),
                            array_of(values<float>(20 * 50, 2), {20, 50})};
  std::vector<Array> want = interpret(p, bad, io); // zipwith's intersection: k = 20
  EXPECT_FALSE(compare_bitwise(want[0], exe->run(bad)[0]));
}

// Random contraction programs (layouts, types, seeds, fold1, operand orders,
// a zipwith that cuts k) on `engine`, fused and unfused, against the
// interpreter in the blocked order: bitwise. Fused, every case with enough
// work takes the contraction path.
void expect_random_programs_agree(const Engine& engine) {
  std::mt19937 rng(2026);
  const std::string transpose_of = "(backpermute (ix (proj 1 (shape X)) (proj 0 (shape X)))"
                                   " (lambda (i) (ix (proj 1 i) (proj 0 i))) X)";
  auto transposed = [&](const std::string& x) {
    std::string t = transpose_of;
    for (size_t at = t.find('X'); at != std::string::npos; at = t.find('X', at + 1))
      t.replace(at, 1, x);
    return t;
  };
  int taken = 0, general = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const char* types[] = {"f32", "f64", "i32", "i64"};
    std::string t = types[rng() % 4];
    bool integer = t[0] == 'i';
    int64_t m = 1 + rng() % 24, n = 1 + rng() % 40, k = 1 + rng() % 120;
    int64_t kb = k + (rng() % 4 == 0 ? rng() % 3 : 0); // b longer in k: the zipwith cuts it
    bool a_kt = rng() % 2, b_nk = rng() % 2, fold1 = rng() % 4 == 0, swap = rng() % 2;
    std::string seed = t == "f32" ? "0.5f32" : t == "f64" ? "0.5" : t == "i32" ? "3i32" : "3";
    std::string f = integer && rng() % 2 ? "(lambda (s p) (+ p s))" : "(lambda (s p) (+ s p))";
    std::string text = "(program ((a (array " + t + " 2)) (b (array " + t + " 2)))\n (alet ((ai " +
                       (a_kt ? transposed("a") : "a") + ") (bj " + (b_nk ? "b" : transposed("b")) +
                       "))\n (" + (fold1 ? "fold1 " + f : "fold " + f + " " + seed) +
                       " (zipwith (lambda (x y) " + (swap ? "(* y x)" : "(* x y)") +
                       ") (replicate (spec all (proj 0 (shape bj)) all) ai)"
                       " (replicate (spec (proj 0 (shape ai)) all all) bj)))))";
    Shape as = a_kt ? Shape{k, m} : Shape{m, k}, bs = b_nk ? Shape{n, kb} : Shape{kb, n};
    auto input = [&](const Shape& sh, uint32_t s) {
      if (t == "f32") return array_of(values<float>(shape_size(sh), s), sh);
      if (t == "f64") return array_of(values<double>(shape_size(sh), s), sh);
      if (t == "i32") return array_of(values<int32_t>(shape_size(sh), s), sh);
      return array_of(values<int64_t>(shape_size(sh), s), sh);
    };
    std::vector<Array> in = {input(as, rng()), input(bs, rng())};
    Program p = parse_and_check(text);
    InterpreterOptions io;
    io.order = ReductionOrder::blocked();
    std::vector<Array> want = interpret(p, in, io);
    for (bool fused : {true, false}) {
      CompileOptions co;
      co.fusion = fused;
      co.order = io.order;
      uint64_t before = parallel::contractions_run();
      std::vector<Array> got = engine.compile(p, co)->run(in);
      std::optional<std::string> diff = compare_bitwise(want[0], got[0]);
      EXPECT_FALSE(diff) << engine.name() << (fused ? " fused " : " unfused ") << *diff << "\n"
                         << text;
      if (fused && m * n * k >= (int64_t(1) << 14)) {
        EXPECT_GT(parallel::contractions_run(), before) << text;
        ++taken;
      } else if (fused) {
        ++general; // the engine's rows entry (the jit's: a row at a time)
      }
    }
  }
  EXPECT_GT(taken, 5);   // the sizes reach the path often enough to mean something
  EXPECT_GT(general, 5); // and the general fold too
}

#if STRATA_HAVE_TBB
TEST(Contraction, RandomProgramsOnTheTbbEngine) {
  expect_random_programs_agree(*make_tbb_engine());
}
#endif
#if STRATA_HAVE_JIT
TEST(Contraction, RandomProgramsOnTheJitEngine) {
  expect_random_programs_agree(*make_jit_engine());
}
#endif

#if STRATA_HAVE_TBB
TEST(Contraction, TheTbbEngineTakesItAndAgreesBitwise) {
  expect_engine_takes_it(*make_tbb_engine());
}
#endif
#if STRATA_HAVE_JIT
TEST(Contraction, TheJitEngineTakesItAndAgreesBitwise) {
  expect_engine_takes_it(*make_jit_engine());
}
#endif

} // namespace
} // namespace strata::test
