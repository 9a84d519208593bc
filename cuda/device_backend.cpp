#include "cuda/device_backend.h"

#include <algorithm>

#include "core/array.h"

namespace strata::cuda {

DeviceBackend::DeviceBackend(const Driver& d, const std::vector<char>& image) : d_(d) {
  make_current();
  check(d_, d_.ModuleLoadData(&module_, image.data()), "cuModuleLoadData");
}

DeviceBackend::~DeviceBackend() {
  d_.CtxSetCurrent(d_.context);
  if (module_) d_.ModuleUnload(module_);
}

void DeviceBackend::make_current() const {
  check(d_, d_.CtxSetCurrent(d_.context), "cuCtxSetCurrent");
}

uint64_t DeviceBackend::alloc(size_t bytes) {
  CUdeviceptr p = 0;
  CUresult r = d_.MemAlloc(&p, std::max<size_t>(bytes, 1));
  // Counted as an allocation that did not fit (Buffer::out_of_memory), as
  // past the host's memory limit: the check could not run, not a disagreement.
  if (r == CUDA_ERROR_OUT_OF_MEMORY) throw Buffer::out_of_memory_error(bytes, "device memory");
  check(d_, r, "cuMemAlloc");
  return uint64_t(p);
}
void DeviceBackend::free(uint64_t address) {
  d_.MemFree(CUdeviceptr(address));
}
void DeviceBackend::upload(uint64_t dst, const void* src, size_t bytes) {
  check(d_, d_.MemcpyHtoD(CUdeviceptr(dst), src, bytes), "cuMemcpyHtoD");
}
void DeviceBackend::download(void* dst, uint64_t src, size_t bytes) {
  // Synchronous copy: also waits for the launches before it.
  check(d_, d_.MemcpyDtoH(dst, CUdeviceptr(src), bytes), "cuMemcpyDtoH");
}

void DeviceBackend::launch(const std::string& name, uint64_t table, uint64_t error, int64_t diag,
                           const LaunchParams& p, int64_t n) {
  auto it = functions_.find(name);
  if (it == functions_.end()) {
    CUfunction f = nullptr;
    check(d_, d_.ModuleGetFunction(&f, module_, (name + "_g").c_str()), "cuModuleGetFunction");
    it = functions_.emplace(name, f).first;
  }
  constexpr int64_t kThreads = 256;
  // Grid-stride: enough blocks to fill the device, never more than the work.
  int64_t blocks = std::min<int64_t>((n + kThreads - 1) / kThreads, int64_t(d_.sms) * 16);
  CUdeviceptr t = table, e = error;
  long long dg = diag, count = n;
  LaunchParams params = p;
  void* args[] = {&t, &e, &dg, &params, &count};
  check(d_,
        d_.LaunchKernel(it->second, unsigned(std::max<int64_t>(blocks, 1)), 1, 1, kThreads, 1, 1, 0,
                        nullptr, args, nullptr),
        "cuLaunchKernel");
}

} // namespace strata::cuda
