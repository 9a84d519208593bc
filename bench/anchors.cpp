// The anchors of bench/anchors.h.
//
// OpenBLAS (Debian's libopenblas-dev, installed by scripts/setup.sh) is
// opened with dlopen on first use rather than linked: OpenBLAS 0.3.21 picks
// its kernels when it loads, and on CPUs newer than it knows (this machine's
// Xeon) it falls back to its generic "Prescott" SSE3 kernels, 5x slower than
// its best. Unless OPENBLAS_CORETYPE is set already, the core OpenBLAS was
// tuned for on this CPU's instruction set (SkylakeX with AVX-512, Haswell
// with AVX2) is set before it loads: the anchor is OpenBLAS at its best.
#include "bench/anchors.h"

#include <dlfcn.h>

#include <cstdlib>
#include <thread>

#include "bench/workloads.h"

namespace strata::bench {
namespace {

struct OpenBlas {
  // cblas.h's signatures, with the enums as ints (CblasRowMajor 101,
  // CblasNoTrans 111).
  void (*sgemm)(int, int, int, int, int, int, float, const float*, int, const float*, int, float,
                float*, int) = nullptr;
  void (*set_num_threads)(int) = nullptr;
  char* (*corename)() = nullptr;
};

const OpenBlas* openblas() {
  static const OpenBlas* loaded = []() -> const OpenBlas* {
#if defined(__x86_64__)
    if (!std::getenv("OPENBLAS_CORETYPE")) {
      if (__builtin_cpu_supports("avx512f"))
        setenv("OPENBLAS_CORETYPE", "SkylakeX", 0);
      else if (__builtin_cpu_supports("avx2"))
        setenv("OPENBLAS_CORETYPE", "Haswell", 0);
    }
#endif
    void* lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return nullptr;
    static OpenBlas o;
    o.sgemm = reinterpret_cast<decltype(o.sgemm)>(dlsym(lib, "cblas_sgemm"));
    o.set_num_threads =
        reinterpret_cast<decltype(o.set_num_threads)>(dlsym(lib, "openblas_set_num_threads"));
    o.corename = reinterpret_cast<decltype(o.corename)>(dlsym(lib, "openblas_get_corename"));
    if (!o.sgemm || !o.set_num_threads || !o.corename) return nullptr;
    return &o;
  }();
  return loaded;
}

// C = A x B, row-major f32: one sgemm.
void openblas_matmul(const std::vector<Array>& in, std::vector<Array>& out, int threads) {
  const OpenBlas& o = *openblas();
  o.set_num_threads(threads > 0 ? threads : int(std::thread::hardware_concurrency()));
  const Shape& a = in[0].shape();
  const Shape& b = in[1].shape();
  int m = int(a[0]), k = int(a[1]), n = int(b[1]);
  o.sgemm(101, 111, 111, m, n, k, 1.0f, in[0].leaf_data<float>(0), k, in[1].leaf_data<float>(0), n,
          0.0f, out[0].leaf_data<float>(0), n);
}

} // namespace

std::vector<Anchor> anchors_of(const std::string& workload) {
  std::vector<Anchor> out;
  // The thread count is set by the caller (tbb::global_control).
#define STRATA_FASTMATH_ANCHOR(w)                                                                  \
  if (workload == #w)                                                                              \
    out.push_back({"cpp_tbb_fastmath", [](const std::vector<Array>& in, std::vector<Array>& o,     \
                                          int) { fastmath_##w(in, o); }});
  STRATA_BENCH_BASELINES(STRATA_FASTMATH_ANCHOR)
#undef STRATA_FASTMATH_ANCHOR
  if (workload == "matmul" && openblas()) out.push_back({"openblas", openblas_matmul});
  return out;
}

std::string anchor_libraries() {
  const OpenBlas* o = openblas();
  return o ? std::string("OpenBLAS, core ") + o->corename() : "none (libopenblas.so.0 not found)";
}

} // namespace strata::bench
