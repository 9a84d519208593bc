// Hand-written sequential C++ baselines: plain loops, compiled at -O3
// (bench/CMakeLists.txt), no fast-math, no intrinsics. A float sum is a plain
// `s += x` loop, which the compiler must not reassociate (so not vectorised).
#include <algorithm>

#include "bench/baseline_kernels.h"
#include "bench/workloads.h"

namespace strata::bench {

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
} // namespace

void o3_dotp(const std::vector<Array>& in, std::vector<Array>& out) {
  const float *x = f32(in[0]), *y = f32(in[1]);
  float s = 0;
  for (int64_t i = 0, n = in[0].size(); i < n; ++i)
    s += x[i] * y[i];
  f32(out[0])[0] = s;
}

void o3_saxpy(const std::vector<Array>& in, std::vector<Array>& out) {
  const float *x = f32(in[0]), *y = f32(in[1]);
  float* z = f32(out[0]);
  for (int64_t i = 0, n = in[0].size(); i < n; ++i)
    z[i] = 2.5f * x[i] + y[i];
}

void o3_mapchain(const std::vector<Array>& in, std::vector<Array>& out) {
  const float* x = f32(in[0]);
  float s = 0;
  for (int64_t i = 0, n = in[0].size(); i < n; ++i)
    s += kernels::mapchain(x[i]);
  f32(out[0])[0] = s;
}

void o3_sum_i32(const std::vector<Array>& in, std::vector<Array>& out) {
  const int32_t* x = i32(in[0]);
  uint32_t s = 0; // wrapping
  for (int64_t i = 0, n = in[0].size(); i < n; ++i)
    s += uint32_t(x[i]);
  i32(out[0])[0] = int32_t(s);
}

void o3_scan_f32(const std::vector<Array>& in, std::vector<Array>& out) {
  const float* x = f32(in[0]);
  float* r = f32(out[0]);
  float s = 0;
  for (int64_t i = 0, n = in[0].size(); i < n; ++i)
    r[i] = s = (i == 0 ? x[0] : s + x[i]);
}

void o3_scan_i32(const std::vector<Array>& in, std::vector<Array>& out) {
  const int32_t* x = i32(in[0]);
  int32_t* r = i32(out[0]);
  uint32_t s = 0;
  for (int64_t i = 0, n = in[0].size(); i < n; ++i)
    r[i] = int32_t(s += uint32_t(x[i]));
}

void o3_fill_i32(const std::vector<Array>& in, std::vector<Array>& out) {
  const int32_t* x = i32(in[0]);
  int32_t* r = i32(out[0]);
  // Branch-free (a quarter of the elements are zeros at random, which a
  // branch mispredicts): x | (last & mask) is x, or last where x is 0.
  int32_t last = 0;
  for (int64_t i = 0, n = in[0].size(); i < n; ++i)
    r[i] = last = x[i] | (last & -int32_t(x[i] == 0));
}

void o3_histogram(const std::vector<Array>& in, std::vector<Array>& out) {
  const int32_t* k = i32(in[0]);
  int32_t* bins = i32(out[0]);
  std::fill(bins, bins + 256, 0);
  for (int64_t i = 0, n = in[0].size(); i < n; ++i)
    ++bins[k[i]];
}

void o3_mandelbrot(const std::vector<Array>&, std::vector<Array>& out) {
  int32_t* r = i32(out[0]);
  const int64_t n = out[0].shape()[0];
  for (int64_t py = 0; py < n; ++py)
    for (int64_t px = 0; px < n; ++px)
      r[py * n + px] = kernels::mandelbrot(px, py, n);
}

void o3_blackscholes(const std::vector<Array>& in, std::vector<Array>& out) {
  const float *s = f32(in[0]), *k = f32(in[1]), *t = f32(in[2]);
  float *call = f32(out[0]), *put = f32(out[1]);
  for (int64_t i = 0, n = in[0].size(); i < n; ++i)
    kernels::blackscholes(s[i], k[i], t[i], call[i], put[i]);
}

void o3_matmul(const std::vector<Array>& in, std::vector<Array>& out) {
  const int64_t n = in[0].shape()[0];
  for (int64_t i = 0; i < n; ++i)
    kernels::matmul_row(f32(in[0]), f32(in[1]), f32(out[0]), n, i);
}

void o3_stencil(const std::vector<Array>& in, std::vector<Array>& out) {
  const int64_t n = in[0].shape()[0];
  for (int64_t y = 0; y < n; ++y)
    kernels::blur_row(f32(in[0]), f32(out[0]), n, y);
}

void o3_nbody(const std::vector<Array>& in, std::vector<Array>& out) {
  const int64_t n = in[0].size();
  for (int64_t i = 0; i < n; ++i)
    kernels::nbody_body(f32(in[0]), f32(in[1]), f32(in[2]), f32(in[3]), n, i, f32(out[0])[i],
                        f32(out[1])[i], f32(out[2])[i]);
}

// Fused by hand: each pass halves into the output and computes the new maximum.
void o3_awhile(const std::vector<Array>& in, std::vector<Array>& out) {
  const int64_t n = in[0].size();
  const float* src = f32(in[0]);
  float* r = f32(out[0]);
  float m = -INFINITY;
  for (int64_t i = 0; i < n; ++i)
    m = std::max(m, src[i]);
  std::copy(src, src + n, r);
  while (m >= 1.0f) {
    m = -INFINITY;
    for (int64_t i = 0; i < n; ++i) {
      r[i] *= 0.5f;
      m = std::max(m, r[i]);
    }
  }
}

} // namespace strata::bench
