#include "cuda/prelude.h"

#include <string>

#include "cuda/launch_abi.h"

namespace strata::cuda {

namespace {
constexpr std::string_view kPreludeHead = R"(// ---- Strata CUDA prelude (cuda/prelude.cpp) ----
#if defined(__CUDACC_RTC__)
typedef signed char i8; typedef short i16; typedef int i32; typedef long long i64;
typedef unsigned char u8; typedef unsigned short u16; typedef unsigned int u32;
typedef unsigned long long u64;
#else
#include <math.h>
#include <string.h>
typedef signed char i8; typedef short i16; typedef int i32; typedef long long i64;
typedef unsigned char u8; typedef unsigned short u16; typedef unsigned int u32;
typedef unsigned long long u64;
#endif
#if !defined(__CUDACC__)
#define __host__
#define __device__
#define __global__
#endif
typedef float f32; typedef double f64; typedef unsigned long long uptr;
#define S_HD __host__ __device__ inline

// ---- the launch ABI (cuda/launch_abi.h): the error slot and the launch parameters
)";
constexpr std::string_view kPreludeTail = R"(
// Per-thread context: the array table, the error slot, the key of the
// element being computed, and whether this thread has failed.
struct SCtx { const i64* T; SErr* E; i64 diag; i64 key; bool failed; };

S_HD void s_atomic_min(u64* p, u64 v) {
#if defined(__CUDA_ARCH__)
  atomicMin(p, v);
#else
  if (v < *p) *p = v;
#endif
}
// Records a failure; true when this thread must write the site's operands.
S_HD bool s_fail(SCtx& c, int site) {
  if (c.failed) return false;
  c.failed = true;
  if (c.diag < 0) { s_atomic_min(&c.E->first, (u64)c.key); return false; }
  if (c.key != c.diag) return false;
  c.E->site = site;
  return true;
}

// ---- combining integers in any order (a permute whose combiner is one of
// these operations, core/combiner.h reorders_exactly): atomics on the
// device, plain updates in the host build, where work items run one by one.
#if defined(__CUDA_ARCH__)
#define S_RED(name, fn, T, D) __device__ inline void name(T* p, T v) { fn((D*)p, (D)v); }
#define S_RED4(name, fn) S_RED(name, fn, i32, int) S_RED(name, fn, u32, unsigned) \
  S_RED(name, fn, i64, u64) S_RED(name, fn, u64, u64)
S_RED4(s_red_add, atomicAdd) S_RED4(s_red_and, atomicAnd) S_RED4(s_red_or, atomicOr)
S_RED4(s_red_xor, atomicXor)
S_RED(s_red_min, atomicMin, i32, int) S_RED(s_red_min, atomicMin, u32, unsigned)
S_RED(s_red_min, atomicMin, i64, i64) S_RED(s_red_min, atomicMin, u64, u64)
S_RED(s_red_max, atomicMax, i32, int) S_RED(s_red_max, atomicMax, u32, unsigned)
S_RED(s_red_max, atomicMax, i64, i64) S_RED(s_red_max, atomicMax, u64, u64)
#else
template <class T> inline void s_red_add(T* p, T v) { *p = (T)((u64)*p + (u64)v); }
template <class T> inline void s_red_and(T* p, T v) { *p = (T)(*p & v); }
template <class T> inline void s_red_or(T* p, T v) { *p = (T)(*p | v); }
template <class T> inline void s_red_xor(T* p, T v) { *p = (T)(*p ^ v); }
template <class T> inline void s_red_min(T* p, T v) { if (v < *p) *p = v; }
template <class T> inline void s_red_max(T* p, T v) { if (v > *p) *p = v; }
#endif

// ---- bits of floats, NaN and infinity tests
S_HD f32 s_f32(u32 b) { union { u32 u; f32 f; } x; x.u = b; return x.f; }
S_HD f64 s_f64(u64 b) { union { u64 u; f64 f; } x; x.u = b; return x.f; }
S_HD bool s_isnan(f32 a) { return a != a; }
S_HD bool s_isnan(f64 a) { return a != a; }
template <class T> S_HD bool s_isnan(T) { return false; }
// The one NaN every float store writes (core/semantics.h, sem::canonical).
S_HD f32 s_canon(f32 a) { return a != a ? s_f32(0x7fc00000u) : a; }
S_HD f64 s_canon(f64 a) { return a != a ? s_f64(0x7ff8000000000000ull) : a; }
S_HD bool s_isinf(f32 a) { return a == s_f32(0x7f800000u) || a == s_f32(0xff800000u); }
S_HD bool s_isinf(f64 a) {
  return a == s_f64(0x7ff0000000000000ull) || a == s_f64(0xfff0000000000000ull);
}

// ---- arithmetic (core/semantics.h): fmin/fmax NaN rules, first operand on ties
template <class T> S_HD T s_min(T a, T b) {
  if (s_isnan(a)) return b;
  if (s_isnan(b)) return a;
  return b < a ? b : a;
}
template <class T> S_HD T s_max(T a, T b) {
  if (s_isnan(a)) return b;
  if (s_isnan(b)) return a;
  return b > a ? b : a;
}
template <class T> S_HD T s_signum(T a) {
  if (a > (T)0) return (T)1;
  if (a < (T)0) return (T)-1;
  return a;
}
template <class T> S_HD bool s_signed() { return (T)-1 < (T)0; }
template <class T> S_HD T s_neg(T a) { return (T)(0ull - (u64)a); }
// Divisor known to be non-zero; MIN / -1 wraps to MIN with remainder 0.
template <class T> S_HD T s_quot(T a, T b) {
  if (s_signed<T>() && b == (T)-1) return s_neg(a);
  return (T)(a / b);
}
template <class T> S_HD T s_rem(T a, T b) {
  if (s_signed<T>() && b == (T)-1) return (T)0;
  return (T)(a % b);
}
template <class T> S_HD T s_idiv(T a, T b) {
  T q = s_quot(a, b);
  if (s_signed<T>() && s_rem(a, b) != (T)0 && ((a < (T)0) != (b < (T)0)))
    q = (T)((u64)q - 1ull);
  return q;
}
template <class T> S_HD T s_mod(T a, T b) {
  T r = s_rem(a, b);
  if (s_signed<T>() && r != (T)0 && ((r < (T)0) != (b < (T)0))) r = (T)((u64)r + (u64)b);
  return r;
}

// ---- bit counts on the operand zero-extended to 64 bits
S_HD u64 s_popc64(u64 x) {
#if defined(__CUDA_ARCH__)
  return (u64)__popcll(x);
#else
  return (u64)__builtin_popcountll(x);
#endif
}
S_HD u64 s_clz64(u64 x) {
#if defined(__CUDA_ARCH__)
  return (u64)__clzll((long long)x);
#else
  return x == 0 ? 64ull : (u64)__builtin_clzll(x);
#endif
}
S_HD u64 s_ctz64(u64 x) {
#if defined(__CUDA_ARCH__)
  return x == 0 ? 64ull : (u64)(__ffsll((long long)x) - 1);
#else
  return x == 0 ? 64ull : (u64)__builtin_ctzll(x);
#endif
}

// ---- float -> int: truncate toward zero, saturate, NaN -> 0; the bounds are
// powers of two (exact in every float type): lo <= t < hi_exclusive.
S_HD f32 s_trunc(f32 a) { return truncf(a); }
S_HD f64 s_trunc(f64 a) { return trunc(a); }
template <class To, class From>
S_HD To s_f2i(From v, From lo, From hi_exclusive, To min_value, To max_value) {
  if (s_isnan(v)) return (To)0;
  From t = s_trunc(v);
  if (t < lo) return min_value;
  if (t >= hi_exclusive) return max_value;
  return (To)t;
}

// ---- stencil boundaries (core/boundary.h): 0 clamp, 1 mirror, 2 wrap, 3 constant (-1)
S_HD i64 s_boundary(int kind, i64 i, i64 n) {
  if (i >= 0 && i < n) return i;
  if (kind == 0) return i < 0 ? 0 : n - 1;
  if (kind == 2) return ((i % n) + n) % n;
  if (kind == 1) {
    if (n == 1) return 0;
    i64 period = 2 * (n - 1);
    i64 r = ((i % period) + period) % period;
    return r < n ? r : period - r;
  }
  return -1;
}

#if defined(__CUDACC__)
#define S_ENTRY(name)                                                                   \
  extern "C" __global__ void name##_g(const i64* T, SErr* E, i64 diag, SLP p, i64 n) {  \
    for (i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x; t < n;                     \
         t += (i64)gridDim.x * blockDim.x)                                              \
      name(T, E, diag, p, t);                                                           \
  }
#else
#define S_ENTRY(name)                                                                   \
  extern "C" void name##_h(const i64* T, SErr* E, i64 diag, SLP p, i64 n) {             \
    for (i64 t = 0; t < n; ++t) name(T, E, diag, p, t);                                 \
  }
#endif
// ---- end of prelude ----
)";
} // namespace

std::string_view prelude() {
  static const std::string text = std::string(kPreludeHead) + kLaunchAbiText + "\n" +
                                  launch_word_names() + std::string(kPreludeTail);
  return text;
}

} // namespace strata::cuda
