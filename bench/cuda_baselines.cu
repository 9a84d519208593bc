// Hand-written CUDA baselines (bench/cuda_baselines.h): CUB and cuBLAS where
// a library does the job, plain kernels otherwise, in the same operation
// order as bench/baseline_kernels.h (built with --fmad=false, like the cuda
// engine's code). Errors stop the benchmark with the CUDA error's text.
#include "bench/cuda_baselines.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cuda/functional>

#include <cstring>
#include <map>
#include <stdexcept>

namespace strata::bench::cuda_baselines {
namespace {

void ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// CUB's temporary storage, grown once and kept (as a tuned program would).
void* temp(size_t bytes) {
  static void* p = nullptr;
  static size_t size = 0;
  if (bytes > size) {
    if (p) cudaFree(p);
    ok(cudaMalloc(&p, bytes), "cudaMalloc");
    size = bytes;
  }
  return p;
}

template <class Call> void cub_call(Call call) {
  size_t bytes = 0;
  ok(call(nullptr, bytes), "CUB (size query)");
  ok(call(temp(bytes), bytes), "CUB");
}

constexpr int kThreads = 256;
unsigned blocks(int64_t n) {
  return unsigned((n + kThreads - 1) / kThreads);
}

template <class T> const T* in_(const std::vector<const void*>& in, size_t i) {
  return static_cast<const T*>(in[i]);
}
template <class T> T* out_(const std::vector<void*>& out, size_t i) {
  return static_cast<T*>(out[i]);
}

// ---- element-wise functors and kernels (operation order of baseline_kernels.h)
struct Product {
  const float *x, *y;
  __device__ float operator()(int64_t i) const { return x[i] * y[i]; }
};

struct MapChain {
  __device__ float operator()(float x) const { return sqrtf(fabsf(x * 1.5f + 2.0f)) * 0.5f - 1.0f; }
};

__global__ void saxpy_kernel(const float* x, const float* y, float* z, int64_t n) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) z[i] = 2.5f * x[i] + y[i];
}

__global__ void mandelbrot_kernel(int32_t* r, int64_t n) {
  int64_t px = int64_t(blockIdx.x) * blockDim.x + threadIdx.x, py = blockIdx.y;
  if (px >= n) return;
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
  r[py * n + px] = count;
}

__device__ float cnd(float d) {
  float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float c = 0.3989422804014327f * expf(-0.5f * d * d) * k *
            (0.31938153f +
             k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
  return d > 0 ? 1.0f - c : c;
}

__global__ void blackscholes_kernel(const float* s, const float* k, const float* t, float* call,
                                    float* put, int64_t n) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float r = 0.02f, v = 0.3f;
  float sqrtt = sqrtf(t[i]);
  float d1 = (logf(s[i] / k[i]) + (r + 0.5f * (v * v)) * t[i]) / (v * sqrtt);
  float d2 = d1 - v * sqrtt;
  float cnd1 = cnd(d1), cnd2 = cnd(d2);
  float ke = k[i] * expf(-r * t[i]);
  call[i] = s[i] * cnd1 - ke * cnd2;
  put[i] = ke * (1.0f - cnd2) - s[i] * (1.0f - cnd1);
}

// 3x3 box blur, clamped border; a 2-D block per tile, neighbours through L1.
__global__ void blur_kernel(const float* img, float* out, int64_t n) {
  int64_t x = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  int64_t y = int64_t(blockIdx.y) * blockDim.y + threadIdx.y;
  if (x >= n || y >= n) return;
  const float c = 1.0f / 9.0f;
  const float* r0 = img + (y > 0 ? y - 1 : 0) * n;
  const float* r1 = img + y * n;
  const float* r2 = img + (y + 1 < n ? y + 1 : n - 1) * n;
  int64_t xm = x > 0 ? x - 1 : 0, xp = x + 1 < n ? x + 1 : n - 1;
  out[y * n + x] = r0[xm] * c + r0[x] * c + r0[xp] * c + r1[xm] * c + r1[x] * c + r1[xp] * c +
                   r2[xm] * c + r2[x] * c + r2[xp] * c;
}

// n-body: each thread one body; the bodies stream through shared memory in
// tiles of the block size.
__global__ void nbody_kernel(const float* x, const float* y, const float* z, const float* m,
                             float* ax, float* ay, float* az, int64_t n) {
  __shared__ float tx[kThreads], ty[kThreads], tz[kThreads], tm[kThreads];
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  float xi = i < n ? x[i] : 0, yi = i < n ? y[i] : 0, zi = i < n ? z[i] : 0;
  float sx = 0, sy = 0, sz = 0;
  for (int64_t base = 0; base < n; base += kThreads) {
    int64_t j = base + threadIdx.x;
    tx[threadIdx.x] = j < n ? x[j] : 0;
    ty[threadIdx.x] = j < n ? y[j] : 0;
    tz[threadIdx.x] = j < n ? z[j] : 0;
    tm[threadIdx.x] = j < n ? m[j] : 0;
    __syncthreads();
    int64_t count = n - base < kThreads ? n - base : kThreads;
    for (int k = 0; k < count; ++k) {
      float dx = tx[k] - xi, dy = ty[k] - yi, dz = tz[k] - zi;
      float r2 = dx * dx + dy * dy + dz * dz + 0.01f;
      float w = tm[k] / (r2 * sqrtf(r2));
      sx += dx * w;
      sy += dy * w;
      sz += dz * w;
    }
    __syncthreads();
  }
  if (i < n) {
    ax[i] = sx;
    ay[i] = sy;
    az[i] = sz;
  }
}

// awhile's body fused by hand: halve in place and the new maximum (values are
// non-negative, so their bit patterns order as integers).
__global__ void halve_max_kernel(float* r, int64_t n, int* max_bits) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  float v = 0;
  if (i < n) r[i] = v = r[i] * 0.5f;
  using Reduce = cub::BlockReduce<float, kThreads>;
  __shared__ typename Reduce::TempStorage storage;
  float m = Reduce(storage).Reduce(v, cuda::maximum<>{});
  if (threadIdx.x == 0) atomicMax(max_bits, __float_as_int(m));
}

// ---- the baselines
using In = const std::vector<const void*>&;
using Out = const std::vector<void*>&;

void dotp(In in, Out out, int64_t n) {
  auto products = thrust::make_transform_iterator(thrust::counting_iterator<int64_t>(0),
                                                  Product{in_<float>(in, 0), in_<float>(in, 1)});
  cub_call([&](void* t, size_t& b) {
    return cub::DeviceReduce::Sum(t, b, products, out_<float>(out, 0), n);
  });
}

void saxpy(In in, Out out, int64_t n) {
  saxpy_kernel<<<blocks(n), kThreads>>>(in_<float>(in, 0), in_<float>(in, 1), out_<float>(out, 0),
                                        n);
}

void mapchain(In in, Out out, int64_t n) {
  auto mapped = thrust::make_transform_iterator(in_<float>(in, 0), MapChain{});
  cub_call([&](void* t, size_t& b) {
    return cub::DeviceReduce::Sum(t, b, mapped, out_<float>(out, 0), n);
  });
}

// Wrapping sums: unsigned arithmetic, the same bits.
void sum_i32(In in, Out out, int64_t n) {
  cub_call([&](void* t, size_t& b) {
    return cub::DeviceReduce::Sum(t, b, in_<uint32_t>(in, 0), out_<uint32_t>(out, 0), n);
  });
}

void scan_f32(In in, Out out, int64_t n) {
  cub_call([&](void* t, size_t& b) {
    return cub::DeviceScan::InclusiveSum(t, b, in_<float>(in, 0), out_<float>(out, 0), n);
  });
}

void scan_i32(In in, Out out, int64_t n) {
  cub_call([&](void* t, size_t& b) {
    return cub::DeviceScan::InclusiveSum(t, b, in_<uint32_t>(in, 0), out_<uint32_t>(out, 0), n);
  });
}

void histogram(In in, Out out, int64_t n) {
  cub_call([&](void* t, size_t& b) {
    return cub::DeviceHistogram::HistogramEven(t, b, in_<int32_t>(in, 0), out_<int32_t>(out, 0),
                                               257, 0, 256, n);
  });
}

void mandelbrot(In, Out out, int64_t n) {
  mandelbrot_kernel<<<dim3(blocks(n), unsigned(n)), kThreads>>>(out_<int32_t>(out, 0), n);
}

void blackscholes(In in, Out out, int64_t n) {
  blackscholes_kernel<<<blocks(n), kThreads>>>(in_<float>(in, 0), in_<float>(in, 1),
                                               in_<float>(in, 2), out_<float>(out, 0),
                                               out_<float>(out, 1), n);
}

// Row-major C = A B is column-major C^T = B^T A^T: one SGEMM with the
// operands swapped (default math mode: true fp32, no TF32).
void matmul(In in, Out out, int64_t n) {
  static cublasHandle_t handle = [] {
    cublasHandle_t h = nullptr;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasCreate failed");
    return h;
  }();
  const float one = 1, zero = 0;
  int k = int(n);
  if (cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, k, k, k, &one, in_<float>(in, 1), k,
                  in_<float>(in, 0), k, &zero, out_<float>(out, 0), k) != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error("cublasSgemm failed");
}

void stencil(In in, Out out, int64_t n) {
  dim3 block(32, 8);
  dim3 grid(unsigned((n + 31) / 32), unsigned((n + 7) / 8));
  blur_kernel<<<grid, block>>>(in_<float>(in, 0), out_<float>(out, 0), n);
}

void nbody(In in, Out out, int64_t n) {
  nbody_kernel<<<blocks(n), kThreads>>>(in_<float>(in, 0), in_<float>(in, 1), in_<float>(in, 2),
                                        in_<float>(in, 3), out_<float>(out, 0), out_<float>(out, 1),
                                        out_<float>(out, 2), n);
}

// The loop's condition is read back each iteration, as any host-driven loop must.
void awhile(In in, Out out, int64_t n) {
  float* r = out_<float>(out, 0);
  static int* word = [] { // the maximum's word (CUB's temporary storage may move)
    int* w = nullptr;
    ok(cudaMalloc(&w, sizeof(int)), "cudaMalloc");
    return w;
  }();
  ok(cudaMemcpy(r, in[0], size_t(n) * 4, cudaMemcpyDeviceToDevice), "cudaMemcpy");
  cub_call([&](void* t, size_t& b) {
    return cub::DeviceReduce::Max(t, b, r, reinterpret_cast<float*>(word), n);
  });
  float m = 0;
  ok(cudaMemcpy(&m, word, 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
  while (m >= 1.0f) {
    ok(cudaMemset(word, 0, sizeof(int)), "cudaMemset");
    halve_max_kernel<<<blocks(n), kThreads>>>(r, n, word);
    int bits = 0;
    ok(cudaMemcpy(&bits, word, 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
    std::memcpy(&m, &bits, 4);
  }
}

struct Entry {
  DeviceBaseline f;
  const char* what;
};

const std::map<std::string, Entry>& table() {
  static const std::map<std::string, Entry> t = {
      {"dotp", {dotp, "CUB DeviceReduce::Sum over a transform iterator"}},
      {"saxpy", {saxpy, "one kernel, one element per thread"}},
      {"mapchain", {mapchain, "CUB DeviceReduce::Sum over a transform iterator"}},
      {"sum_i32", {sum_i32, "CUB DeviceReduce::Sum"}},
      {"scan_f32", {scan_f32, "CUB DeviceScan::InclusiveSum"}},
      {"scan_i32", {scan_i32, "CUB DeviceScan::InclusiveSum"}},
      {"histogram", {histogram, "CUB DeviceHistogram::HistogramEven"}},
      {"mandelbrot", {mandelbrot, "one kernel, one pixel per thread"}},
      {"blackscholes", {blackscholes, "one kernel, one option per thread"}},
      {"matmul", {matmul, "cuBLAS SGEMM (fp32)"}},
      {"stencil", {stencil, "one kernel, 32x8 blocks, neighbours through L1"}},
      {"nbody", {nbody, "one kernel, bodies tiled through shared memory"}},
      {"awhile", {awhile, "CUB DeviceReduce::Max, then a fused halve+max kernel per iteration"}},
  };
  return t;
}

} // namespace

DeviceBaseline find(const std::string& workload) {
  auto it = table().find(workload);
  return it == table().end() ? nullptr : it->second.f;
}

std::string what(const std::string& workload) {
  auto it = table().find(workload);
  return it == table().end() ? "" : it->second.what;
}

bool device_available(std::string& why) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    why = std::string("no CUDA device (") + cudaGetErrorString(e) + ")";
    return false;
  }
  if (count == 0) {
    why = "no CUDA device";
    return false;
  }
  return true;
}

std::string device_name() {
  cudaDeviceProp p{};
  ok(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
  return p.name;
}

double device_peak_bandwidth() {
  int clock_khz = 0, bus_bits = 0;
  ok(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, 0), "cudaDeviceGetAttribute");
  ok(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0),
     "cudaDeviceGetAttribute");
  return 2.0 * double(clock_khz) * 1e3 * double(bus_bits) / 8.0;
}

void* device_alloc(size_t bytes) {
  void* p = nullptr;
  ok(cudaMalloc(&p, bytes ? bytes : 1), "cudaMalloc");
  return p;
}
void device_free(void* p) {
  cudaFree(p);
}
void to_device(void* dst, const void* src, size_t bytes) {
  ok(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
}
void to_host(void* dst, const void* src, size_t bytes) {
  ok(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
}
void synchronize() {
  ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

double time_ms(const DeviceBaseline& f, const std::vector<const void*>& in,
               const std::vector<void*>& out, int64_t n) {
  cudaEvent_t start, stop;
  ok(cudaEventCreate(&start), "cudaEventCreate");
  ok(cudaEventCreate(&stop), "cudaEventCreate");
  ok(cudaEventRecord(start), "cudaEventRecord");
  f(in, out, n);
  ok(cudaGetLastError(), "kernel launch");
  ok(cudaEventRecord(stop), "cudaEventRecord");
  ok(cudaEventSynchronize(stop), "cudaEventSynchronize");
  float ms = 0;
  ok(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return double(ms);
}

} // namespace strata::bench::cuda_baselines
