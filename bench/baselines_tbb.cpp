// Hand-written oneTBB baselines: what a C++ programmer writes with oneTBB
// directly (parallel_for, parallel_reduce, parallel_scan, per-chunk private
// histograms), compiled at -O3 like bench/baselines_o3.cpp. Float sums inside
// a chunk use eight independent accumulators, so the compiler vectorises them
// (a hand-written loop is free to reassociate; the engines are allowed to, too).
#include <algorithm>
#include <array>
#include <functional>

#include <tbb/blocked_range.h>
#include <tbb/blocked_range2d.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/parallel_scan.h>

#include "bench/baseline_kernels.h"
#include "bench/workloads.h"

// Compiled twice: strict (tbb_*, -O3 -march=native, the project's
// -ffp-contract=off), and by baselines_tbb_fastmath.cpp as fastmath_* with
// -ffast-math (which changes results: reassociation, FMA, libmvec).
#if defined(STRATA_FASTMATH_BASELINES)
#define STRATA_TBB_BASELINE(w) fastmath_##w
#else
#define STRATA_TBB_BASELINE(w) tbb_##w
#endif

namespace strata::bench {

#if defined(STRATA_FASTMATH_BASELINES)
namespace kernels = fastmath_kernels;
#endif

namespace {
const float* f32(const Array& a) {
  return a.leaf_data<float>(0);
}
const int32_t* i32(const Array& a) {
  return a.leaf_data<int32_t>(0);
}
float* f32(Array& a) {
  return a.leaf_data<float>(0);
}
int32_t* i32(Array& a) {
  return a.leaf_data<int32_t>(0);
}

using Range = tbb::blocked_range<int64_t>;
constexpr int64_t kGrain = 1 << 14;

// The sum of f(i) for i in [b, e), eight lanes.
template <class F> float sum8(int64_t b, int64_t e, F f) {
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int64_t i = b;
  for (; i + 8 <= e; i += 8)
    for (int l = 0; l < 8; ++l)
      acc[l] += f(i + l);
  float s = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
  for (; i < e; ++i)
    s += f(i);
  return s;
}

template <class F> float parallel_sum(int64_t n, F f) {
  return tbb::parallel_reduce(
      Range(0, n, kGrain), 0.0f,
      [&](const Range& r, float s) { return s + sum8(r.begin(), r.end(), f); }, std::plus<>());
}

template <class T, class Add> void parallel_inclusive_scan(const T* x, T* r, int64_t n, Add add) {
  tbb::parallel_scan(
      Range(0, n, kGrain), T(0),
      [&](const Range& rg, T s, bool final) {
        for (int64_t i = rg.begin(); i < rg.end(); ++i) {
          s = add(s, x[i]);
          if (final) r[i] = s;
        }
        return s;
      },
      add);
}
} // namespace

void STRATA_TBB_BASELINE(dotp)(const std::vector<Array>& in, std::vector<Array>& out) {
  const float *x = f32(in[0]), *y = f32(in[1]);
  f32(out[0])[0] = parallel_sum(in[0].size(), [=](int64_t i) { return x[i] * y[i]; });
}

void STRATA_TBB_BASELINE(saxpy)(const std::vector<Array>& in, std::vector<Array>& out) {
  const float *x = f32(in[0]), *y = f32(in[1]);
  float* z = f32(out[0]);
  tbb::parallel_for(Range(0, in[0].size(), kGrain), [=](const Range& r) {
    for (int64_t i = r.begin(); i < r.end(); ++i)
      z[i] = 2.5f * x[i] + y[i];
  });
}

void STRATA_TBB_BASELINE(mapchain)(const std::vector<Array>& in, std::vector<Array>& out) {
  const float* x = f32(in[0]);
  f32(out[0])[0] = parallel_sum(in[0].size(), [=](int64_t i) { return kernels::mapchain(x[i]); });
}

void STRATA_TBB_BASELINE(sum_i32)(const std::vector<Array>& in, std::vector<Array>& out) {
  const int32_t* x = i32(in[0]);
  uint32_t s = tbb::parallel_reduce(
      Range(0, in[0].size(), kGrain), uint32_t(0),
      [=](const Range& r, uint32_t s) {
        for (int64_t i = r.begin(); i < r.end(); ++i)
          s += uint32_t(x[i]);
        return s;
      },
      std::plus<>());
  i32(out[0])[0] = int32_t(s);
}

void STRATA_TBB_BASELINE(scan_f32)(const std::vector<Array>& in, std::vector<Array>& out) {
  parallel_inclusive_scan(f32(in[0]), f32(out[0]), in[0].size(), std::plus<float>());
}

void STRATA_TBB_BASELINE(scan_i32)(const std::vector<Array>& in, std::vector<Array>& out) {
  parallel_inclusive_scan(i32(in[0]), i32(out[0]), in[0].size(),
                          [](int32_t a, int32_t b) { return int32_t(uint32_t(a) + uint32_t(b)); });
}

void STRATA_TBB_BASELINE(fill_i32)(const std::vector<Array>& in, std::vector<Array>& out) {
  parallel_inclusive_scan(i32(in[0]), i32(out[0]), in[0].size(),
                          [](int32_t a, int32_t b) { return b != 0 ? b : a; });
}

void STRATA_TBB_BASELINE(histogram)(const std::vector<Array>& in, std::vector<Array>& out) {
  using Bins = std::array<int32_t, 256>;
  const int32_t* k = i32(in[0]);
  Bins zero{};
  Bins total = tbb::parallel_reduce(
      Range(0, in[0].size(), 1 << 16), zero,
      [=](const Range& r, Bins b) {
        for (int64_t i = r.begin(); i < r.end(); ++i)
          ++b[k[i]];
        return b;
      },
      [](Bins a, const Bins& b) {
        for (int i = 0; i < 256; ++i)
          a[i] += b[i];
        return a;
      });
  std::copy(total.begin(), total.end(), i32(out[0]));
}

void STRATA_TBB_BASELINE(mandelbrot)(const std::vector<Array>&, std::vector<Array>& out) {
  int32_t* r = i32(out[0]);
  const int64_t n = out[0].shape()[0];
  tbb::parallel_for(Range(0, n, 1), [=](const Range& rows) {
    for (int64_t py = rows.begin(); py < rows.end(); ++py)
      for (int64_t px = 0; px < n; ++px)
        r[py * n + px] = kernels::mandelbrot(px, py, n);
  });
}

void STRATA_TBB_BASELINE(blackscholes)(const std::vector<Array>& in, std::vector<Array>& out) {
  const float *s = f32(in[0]), *k = f32(in[1]), *t = f32(in[2]);
  float *call = f32(out[0]), *put = f32(out[1]);
  tbb::parallel_for(Range(0, in[0].size(), 4096), [=](const Range& r) {
    for (int64_t i = r.begin(); i < r.end(); ++i)
      kernels::blackscholes(s[i], k[i], t[i], call[i], put[i]);
  });
}

void STRATA_TBB_BASELINE(matmul)(const std::vector<Array>& in, std::vector<Array>& out) {
  const int64_t n = in[0].shape()[0];
  const float *a = f32(in[0]), *b = f32(in[1]);
  float* c = f32(out[0]);
  tbb::parallel_for(Range(0, n, 1), [=](const Range& rows) {
    for (int64_t i = rows.begin(); i < rows.end(); ++i)
      kernels::matmul_row(a, b, c, n, i);
  });
}

void STRATA_TBB_BASELINE(stencil)(const std::vector<Array>& in, std::vector<Array>& out) {
  const int64_t n = in[0].shape()[0];
  const float* img = f32(in[0]);
  float* r = f32(out[0]);
  tbb::parallel_for(Range(0, n, 4), [=](const Range& rows) {
    for (int64_t y = rows.begin(); y < rows.end(); ++y)
      kernels::blur_row(img, r, n, y);
  });
}

void STRATA_TBB_BASELINE(nbody)(const std::vector<Array>& in, std::vector<Array>& out) {
  const int64_t n = in[0].size();
  const float *x = f32(in[0]), *y = f32(in[1]), *z = f32(in[2]), *m = f32(in[3]);
  float *ax = f32(out[0]), *ay = f32(out[1]), *az = f32(out[2]);
  tbb::parallel_for(Range(0, n, 16), [=](const Range& r) {
    for (int64_t i = r.begin(); i < r.end(); ++i)
      kernels::nbody_body(x, y, z, m, n, i, ax[i], ay[i], az[i]);
  });
}

// Fused by hand: each pass halves into the output and computes the new maximum.
void STRATA_TBB_BASELINE(awhile)(const std::vector<Array>& in, std::vector<Array>& out) {
  const int64_t n = in[0].size();
  const float* src = f32(in[0]);
  float* r = f32(out[0]);
  auto pass = [&](bool first) {
    return tbb::parallel_reduce(
        Range(0, n, kGrain), -INFINITY,
        [=](const Range& rg, float m) {
          for (int64_t i = rg.begin(); i < rg.end(); ++i) {
            float v = first ? src[i] : r[i] * 0.5f;
            r[i] = v;
            m = std::max(m, v);
          }
          return m;
        },
        [](float a, float b) { return std::max(a, b); });
  };
  float m = pass(true);
  while (m >= 1.0f)
    m = pass(false);
}

} // namespace strata::bench
