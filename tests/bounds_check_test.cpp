// `strata check`'s comparison with expected files never fails a correct
// computation: for real programs, another legal evaluation computed here in
// C++ (pairwise summation, the blocked order, the exact sum rounded once, exp
// off by an ulp) lies inside the bounds of Freedoms::numpy(), and wrong ones
// (a dropped term, a value off after a fold) do not. The 2^24-element cases
// run only in an optimised build without sanitizers (STRATA_BIG_BOUNDS_TESTS).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <functional>

#include "core/npy.h"
#include "interpreter/bounds.h"
#include "oracle/bounded_compare.h"
#include "tests/cli_util.h"
#include "tests/test_util.h"

// The sums of 10^6 and 2^24 terms and the 2^24 dot product: about 2 s and
// 6-9 s each in a release build; not in debug or sanitizer builds.
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__)
#define STRATA_BIG_BOUNDS_TESTS 1
#endif

namespace strata {
namespace {

using namespace strata::test;

// Uniform values in [0, 1) of type T from a fixed seed.
template <class T> std::vector<T> uniform(size_t n, uint64_t seed) {
  std::vector<T> v(n);
  uint64_t x = seed;
  for (T& t : v) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    t = T(double(x >> 40) * 0x1p-24); // 24 bits: exact in f32 and f64
  }
  return v;
}

template <class T> T pairwise(const T* v, size_t n) {
  if (n <= 8) {
    T s = 0;
    for (size_t i = 0; i < n; ++i)
      s += v[i];
    return s;
  }
  return pairwise(v, n / 2) + pairwise(v + n / 2, n - n / 2);
}

template <class T> T exact_sum_rounded_once(const std::vector<T>& v) {
  long double s = 0; // exact: 24-bit terms, fewer than 2^40 of them
  for (T t : v)
    s += t;
  return T(s);
}

[[maybe_unused]] BoundedComparison check(const Program& p, const std::vector<Array>& inputs,
                                         const Array& other, size_t result = 0) {
  return compare_with_bounds(bound_program(p, inputs, Freedoms::numpy())[result], other);
}

std::string first(const BoundedComparison& c) {
  return c.messages.empty() ? "" : c.messages[0];
}

template <class T> std::string sum_program() {
  std::string t(scalar_name(kind_of<T>));
  return "(program ((xs (array " + t + " 1))) (fold (lambda ((a " + t + ") (b " + t +
         ")) (+ a b)) 0" + t + " xs))";
}

template <class T> void sums_pass(size_t n, bool check_dropped) {
  Program p = parse_and_check(sum_program<T>());
  std::vector<T> v = uniform<T>(n, n);
  Array xs = array_of<T>(v);
  auto start = std::chrono::steady_clock::now();
  auto bounds = bound_program(p, {xs}, Freedoms::numpy());
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  BScalar b = bounds[0].leaf(0, 0);
  std::cout << scalar_name(kind_of<T>) << " sum of " << n << " terms: bound [" << b.lo << ", "
            << b.hi << "] around " << format_value(b.point) << " (" << secs << " s)\n";
  InterpreterOptions blocked;
  blocked.order = ReductionOrder::blocked();
  for (const Array& other :
       {scalar_array(pairwise(v.data(), v.size())), scalar_array(exact_sum_rounded_once(v)),
        interpret(p, {xs}, blocked)[0]}) {
    BoundedComparison c = compare_with_bounds(bounds[0], other);
    EXPECT_TRUE(c.ok()) << first(c);
    EXPECT_EQ(c.counts.bitwise + c.counts.bounded, 1); // bitwise when it is the point
  }
  if (check_dropped) {
    T dropped = T((long double)exact_sum_rounded_once(v) - v[n / 3]);
    EXPECT_FALSE(compare_with_bounds(bounds[0], scalar_array(dropped)).ok());
  }
}

#ifdef STRATA_BIG_BOUNDS_TESTS
TEST(BoundsCheck, SumsOfAMillionTermsInAnyOrderPass) {
  sums_pass<double>(1000000, true);
  // f32: any order of 10^6 terms may be off by several percent (the bound
  // holds them all), so a dropped term of at most 1 is inside it.
  sums_pass<float>(1000000, false);
}

TEST(BoundsCheck, F64SumOf2To24TermsInAnyOrderPasses) {
  sums_pass<double>(size_t(1) << 24, true);
}
TEST(BoundsCheck, F32SumOf2To24TermsInAnyOrderPasses) {
  sums_pass<float>(size_t(1) << 24, false);
}

TEST(BoundsCheck, DotProductOf2To24FloatsPasses) {
  Program p = parse_and_check("(program ((xs (array f32 1)) (ys (array f32 1)))"
                              " (fold (lambda ((a f32) (b f32)) (+ a b)) 0f32"
                              "  (zipwith (lambda ((x f32) (y f32)) (* x y)) xs ys)))");
  size_t n = size_t(1) << 24;
  std::vector<float> x = uniform<float>(n, 1), y = uniform<float>(n, 2), xy(n);
  for (size_t i = 0; i < n; ++i)
    xy[i] = x[i] * y[i];
  BoundedComparison c =
      check(p, {array_of<float>(x), array_of<float>(y)}, scalar_array(pairwise(xy.data(), n)));
  EXPECT_TRUE(c.ok()) << first(c);
}
#endif

// ------------------------------------------------------------ softmax
const char* kSoftmax = R"((program ((x (array f32 2)))
  (alet ((m (fold1 (lambda ((a f32) (b f32)) (max a b)) x))
         (e (generate (shape x) (lambda ((i (ix 2))) (exp (- (! x i) (! m (ix (proj 0 i))))))))
         (s (fold (lambda ((a f32) (b f32)) (+ a b)) 0f32 e)))
    (generate (shape x) (lambda ((i (ix 2))) (/ (! e i) (! s (ix (proj 0 i)))))))))";

// Softmax in C++: pairwise row sums, exp moved by `exp_ulps` floats (a
// vector libm), the sum multiplied by `sum_scale` (1: correct).
Array softmax(const std::vector<float>& x, int64_t rows, int64_t cols, int exp_ulps,
              float sum_scale) {
  Array out = Array::allocate(Type::scalar(ScalarKind::F32), {rows, cols});
  std::vector<float> e(static_cast<size_t>(cols), 0.0f);
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = &x[size_t(r * cols)];
    float m = row[0];
    for (int64_t j = 1; j < cols; ++j)
      m = std::max(m, row[j]);
    for (int64_t j = 0; j < cols; ++j) {
      e[size_t(j)] = std::exp(row[j] - m);
      for (int k = 0; k < std::abs(exp_ulps); ++k)
        e[size_t(j)] = std::nextafter(e[size_t(j)], j % 2 ? INFINITY : 0.0f);
    }
    float s = pairwise(e.data(), e.size()) * sum_scale;
    for (int64_t j = 0; j < cols; ++j)
      out.write(0, r * cols + j, Scalar::make(e[size_t(j)] / s));
  }
  return out;
}

TEST(BoundsCheck, SoftmaxOverRows) {
  Program p = parse_and_check(kSoftmax);
  int64_t rows = 64, cols = 100;
  std::vector<float> x = uniform<float>(size_t(rows * cols), 5);
  for (float& v : x)
    v = v * 20 - 10;
  Array in = Array::allocate(Type::scalar(ScalarKind::F32), {rows, cols});
  for (size_t i = 0; i < x.size(); ++i)
    in.write(0, int64_t(i), Scalar::make(x[i]));
  auto bounds = bound_program(p, {in}, Freedoms::numpy());
  BoundedComparison good = compare_with_bounds(bounds[0], softmax(x, rows, cols, 1, 1.0f));
  EXPECT_TRUE(good.ok()) << first(good);
  EXPECT_EQ(good.counts.bitwise + good.counts.bounded, rows * cols);
  EXPECT_GT(good.counts.bounded, 0);
  // The sum off by 1e-4 after the fold: every element of the row is outside.
  BoundedComparison bad = compare_with_bounds(bounds[0], softmax(x, rows, cols, 0, 1.0001f));
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(first(bad).find("outside the bound"), std::string::npos) << first(bad);
  // Replayed exactly (no freedom), a value off by 2 ulps after the fold fails.
  auto exact = bound_program(p, {in}, Freedoms{});
  Array off = interpret(p, {in})[0];
  off.write(0, 7,
            Scalar::make(std::nextafter(std::nextafter(off.read(0, 7).get<float>(), 1.f), 1.f)));
  EXPECT_FALSE(compare_with_bounds(exact[0], off).ok());
}

// ------------------------------------------------------------ n-body
TEST(BoundsCheck, OneNBodyStepSummedInReverse) {
  std::ifstream in(source_path("examples/nbody.strata"));
  Program p = parse_and_check(std::string(std::istreambuf_iterator<char>(in), {}));
  size_t n = 200;
  std::vector<float> x = uniform<float>(n, 11), y = uniform<float>(n, 12),
                     z = uniform<float>(n, 13), m = uniform<float>(n, 14);
  std::vector<Array> inputs = {array_of<float>(x), array_of<float>(y), array_of<float>(z),
                               array_of<float>(m)};
  auto bounds = bound_program(p, inputs, Freedoms::numpy());
  for (size_t c = 0; c < 3; ++c) {
    std::vector<float> acc(n);
    for (size_t i = 0; i < n; ++i) {
      float a = 0;
      for (size_t j = n; j-- > 0;) { // the other order: from the last body down
        float dx = x[j] - x[i], dy = y[j] - y[i], dz = z[j] - z[i];
        float r2 = ((dx * dx + dy * dy) + dz * dz) + 0.01f;
        float w = m[j] / (r2 * std::sqrt(r2));
        a += (c == 0 ? dx : c == 1 ? dy : dz) * w;
      }
      acc[i] = a;
    }
    BoundedComparison r = compare_with_bounds(bounds[c], array_of<float>(acc));
    EXPECT_TRUE(r.ok()) << c << ": " << first(r);
    acc[3] += 0.5f * std::fabs(acc[3]) + 1e-3f;
    EXPECT_FALSE(compare_with_bounds(bounds[c], array_of<float>(acc)).ok());
  }
}

// ------------------------------------------------------------ k-means
const char* kKMeans =
    R"((program ((px (array f32 1)) (py (array f32 1)) (cx (array f32 1)) (cy (array f32 1)))
  (alet ((assign (generate (shape px) (lambda ((i (ix 1)))
           (let ((x (! px i)) (y (! py i)))
             (proj 1 (while (lambda ((s (tuple i64 i64 f32))) (< (proj 0 s) (size cx)))
                            (lambda ((s (tuple i64 i64 f32)))
                              (let ((j (proj 0 s))
                                    (dx (- x (! cx (ix j))))
                                    (dy (- y (! cy (ix j))))
                                    (d (+ (* dx dx) (* dy dy))))
                                (if (< d (proj 2 s)) (tuple (+ j 1) j d)
                                    (tuple (+ j 1) (proj 1 s) (proj 2 s)))))
                            (tuple 0 0 3e38f32)))))))
         (sums (permute (lambda ((a (tuple f32 f32 f32)) (b (tuple f32 f32 f32)))
                          (tuple (+ (proj 0 a) (proj 0 b)) (+ (proj 1 a) (proj 1 b))
                                 (+ (proj 2 a) (proj 2 b))))
                        (fill (shape cx) (tuple 0f32 0f32 0f32))
                        (lambda ((i (ix 1))) (ix (! assign i)))
                        (generate (shape px) (lambda ((i (ix 1))) (tuple (! px i) (! py i) 1f32))))))
    (atuple (map (lambda ((s (tuple f32 f32 f32))) (/ (proj 0 s) (proj 2 s))) sums)
            (map (lambda ((s (tuple f32 f32 f32))) (/ (proj 1 s) (proj 2 s))) sums)))))";

TEST(BoundsCheck, OneKMeansStepWithAnotherPermuteOrder) {
  Program p = parse_and_check(kKMeans);
  size_t n = 5000, k = 4;
  std::vector<float> px = uniform<float>(n, 21), py = uniform<float>(n, 22);
  std::vector<float> cx = {0.2f, 0.8f, 0.2f, 0.8f}, cy = {0.2f, 0.2f, 0.8f, 0.8f};
  std::vector<Array> inputs = {array_of<float>(px), array_of<float>(py), array_of<float>(cx),
                               array_of<float>(cy)};
  auto bounds = bound_program(p, inputs, Freedoms::numpy());
  std::vector<float> sx(k, 0), sy(k, 0), cnt(k, 0);
  for (size_t i = n; i-- > 0;) { // the sources in reverse order
    size_t best = 0;
    float bd = 3e38f;
    for (size_t j = 0; j < k; ++j) {
      float dx = px[i] - cx[j], dy = py[i] - cy[j], d = dx * dx + dy * dy;
      if (d < bd) best = j, bd = d;
    }
    sx[best] += px[i];
    sy[best] += py[i];
    cnt[best] += 1;
  }
  std::vector<float> nx(k), ny(k);
  for (size_t j = 0; j < k; ++j)
    nx[j] = sx[j] / cnt[j], ny[j] = sy[j] / cnt[j];
  BoundedComparison rx = compare_with_bounds(bounds[0], array_of<float>(nx));
  BoundedComparison ry = compare_with_bounds(bounds[1], array_of<float>(ny));
  EXPECT_TRUE(rx.ok()) << first(rx);
  EXPECT_TRUE(ry.ok()) << first(ry);
  EXPECT_EQ(rx.counts.bitwise + rx.counts.bounded, int64_t(k));
  nx[2] *= 1.001f;
  EXPECT_FALSE(compare_with_bounds(bounds[0], array_of<float>(nx)).ok());
}

// ------------------------------------------------------------ strata check
TEST(BoundsCheck, StrataCheckComparesExpectedFilesWithBoundsOrATolerance) {
  TempDir dir;
  std::string program = dir.write("sum.strata", sum_program<float>());
  std::filesystem::create_directory(dir / "sum");
  std::vector<float> v = uniform<float>(100000, 3);
  write_npy((dir / "sum" / "xs.npy").string(), array_of<float>(v));
  std::string expected = (dir / "sum" / "expected.npy").string();
  write_npy(expected, scalar_array(pairwise(v.data(), v.size())));
  CliResult ok = run_cli("check " + program + " --engine interp");
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("interp vs expected  (1 elements: 0 bitwise, 1 under a bound"),
            std::string::npos)
      << ok.out;
  // A sum 10% too large is outside the bound: the message gives the bound and the distance.
  write_npy(expected, scalar_array(pairwise(v.data(), v.size()) * 1.1f));
  CliResult bad = run_cli("check " + program + " --engine interp");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("outside the bound ["), std::string::npos) << bad.err;
  // --rtol overrides the bounds: |x - e| <= atol + rtol * |e|.
  CliResult loose = run_cli("check " + program + " --engine interp --rtol 0.2");
  EXPECT_EQ(loose.exit_code, 0) << loose.err;
  CliResult tight = run_cli("check " + program + " --engine interp --rtol 1e-3 --atol 0");
  EXPECT_EQ(tight.exit_code, 1);
  EXPECT_NE(tight.err.find("tolerance"), std::string::npos) << tight.err;
}

} // namespace
} // namespace strata
