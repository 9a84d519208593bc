// Deterministic benchmark inputs, exactly as docs/bench.md ("Workload definitions")
// defines them (hash32, h, u01, mod), so that every engine and every
// hand-written baseline sees the same data, and figures can be compared with
// other libraries timed on the same inputs.
#pragma once

#include <cstdint>

#include "core/array.h"

namespace strata::bench {

inline uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}
inline uint32_t h(uint32_t i, uint32_t seed) {
  return hash32(i + seed * 0x9E3779B9u);
}
inline float u01(uint32_t i, uint32_t seed) {
  return float(h(i, seed) >> 8) * 0x1p-24f;
}
inline int32_t mod(uint32_t i, uint32_t seed, uint32_t m) {
  return int32_t(h(i, seed) % m);
}

// u01v(n, seed, scale, off)[i] = u01(i, seed) * scale + off, an (array f32 1).
Array u01v(int64_t n, uint32_t seed, float scale = 1, float off = 0);
// mod(i, seed, m) for i < n, an (array i32 1).
Array modv(int64_t n, uint32_t seed, uint32_t m);
// float(mod(i, seed, m)) + off, an (array f32 1) (scan_f32's exact integers).
Array modv_f32(int64_t n, uint32_t seed, uint32_t m, float off);
// A fresh zero-filled (array f32 R) / (array i32 R) of that shape.
Array zeros_f32(Shape shape);
Array zeros_i32(Shape shape);
// The same values in another shape (a row-major reinterpretation, copied).
Array reshaped(const Array& a, Shape shape);

} // namespace strata::bench
