// The scalar kernels both hand-written baselines share: one element, one
// pixel, one option, one body, one output row — written as a C++ programmer
// would, in the same operation order as the Strata programs (the build uses
// -ffp-contract=off, so no multiply-add is fused), so that results can be
// compared with engines tightly. bench/baselines_o3.cpp loops over them
// sequentially, bench/baselines_tbb.cpp in parallel with oneTBB.
#pragma once

#include <cmath>
#include <cstdint>

// Named apart in the -ffast-math build of the baselines
// (baselines_tbb_fastmath.cpp), so that the linker never merges its inline
// functions with the strict ones.
#ifndef STRATA_BASELINE_KERNELS
#define STRATA_BASELINE_KERNELS kernels
#endif

namespace strata::bench::STRATA_BASELINE_KERNELS {

inline float mapchain(float x) {
  return std::sqrt(std::fabs(x * 1.5f + 2.0f)) * 0.5f - 1.0f;
}

inline int32_t mandelbrot(int64_t px, int64_t py, int64_t n) {
  const float step = 3.0f / float(n);
  const float cx = -2.0f + float(px) * step, cy = -1.5f + float(py) * step;
  float x = 0, y = 0;
  int32_t count = 0;
  while (count < 255 && x * x + y * y <= 4.0f) {
    float nx = x * x - y * y + cx;
    y = 2.0f * x * y + cy;
    x = nx;
    ++count;
  }
  return count;
}

inline float cnd(float d) {
  float k = 1.0f / (1.0f + 0.2316419f * std::fabs(d));
  float c = 0.3989422804014327f * std::exp(-0.5f * d * d) * k *
            (0.31938153f +
             k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
  return d > 0 ? 1.0f - c : c;
}

inline void blackscholes(float s, float k, float t, float& call, float& put) {
  const float r = 0.02f, v = 0.3f;
  float sqrtt = std::sqrt(t);
  float d1 = (std::log(s / k) + (r + 0.5f * (v * v)) * t) / (v * sqrtt);
  float d2 = d1 - v * sqrtt;
  float cnd1 = cnd(d1), cnd2 = cnd(d2);
  float ke = k * std::exp(-r * t);
  call = s * cnd1 - ke * cnd2;
  put = ke * (1.0f - cnd2) - s * (1.0f - cnd1);
}

// Row y of the 3x3 box blur of an n x n image (clamped border), interior
// without index clamping.
inline void blur_row(const float* img, float* out, int64_t n, int64_t y) {
  const float c = 1.0f / 9.0f;
  const float* r0 = img + (y > 0 ? y - 1 : 0) * n;
  const float* r1 = img + y * n;
  const float* r2 = img + (y + 1 < n ? y + 1 : n - 1) * n;
  auto at = [&](int64_t x) {
    int64_t xm = x > 0 ? x - 1 : 0, xp = x + 1 < n ? x + 1 : n - 1;
    return r0[xm] * c + r0[x] * c + r0[xp] * c + r1[xm] * c + r1[x] * c + r1[xp] * c + r2[xm] * c +
           r2[x] * c + r2[xp] * c;
  };
  if (n == 0) return;
  out[y * n] = at(0);
  for (int64_t x = 1; x + 1 < n; ++x)
    out[y * n + x] = r0[x - 1] * c + r0[x] * c + r0[x + 1] * c + r1[x - 1] * c + r1[x] * c +
                     r1[x + 1] * c + r2[x - 1] * c + r2[x] * c + r2[x + 1] * c;
  if (n > 1) out[y * n + n - 1] = at(n - 1);
}

// Acceleration of body i (j = i included: its contribution is 0).
inline void nbody_body(const float* x, const float* y, const float* z, const float* m, int64_t n,
                       int64_t i, float& ax, float& ay, float& az) {
  float sx = 0, sy = 0, sz = 0;
  for (int64_t j = 0; j < n; ++j) {
    float dx = x[j] - x[i], dy = y[j] - y[i], dz = z[j] - z[i];
    float r2 = dx * dx + dy * dy + dz * dz + 0.01f;
    float w = m[j] / (r2 * std::sqrt(r2));
    sx += dx * w;
    sy += dy * w;
    sz += dz * w;
  }
  ax = sx;
  ay = sy;
  az = sz;
}

// Row i of C = A x B (n x n, row-major), i-k-j order so the inner loop vectorises.
inline void matmul_row(const float* a, const float* b, float* c, int64_t n, int64_t i) {
  float* ci = c + i * n;
  for (int64_t j = 0; j < n; ++j)
    ci[j] = 0;
  for (int64_t k = 0; k < n; ++k) {
    float aik = a[i * n + k];
    const float* bk = b + k * n;
    for (int64_t j = 0; j < n; ++j)
      ci[j] += aik * bk[j];
  }
}

} // namespace strata::bench::STRATA_BASELINE_KERNELS
