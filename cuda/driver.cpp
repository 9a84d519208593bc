#include "cuda/driver.h"

#include <dlfcn.h>

#include "core/error.h"

namespace strata::cuda {

namespace {

struct Loaded {
  Driver driver;
  bool ok = false;
  std::string why;
};

template <class F> bool resolve(void* lib, F& f, const char* name) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  return f != nullptr;
}

Loaded load() {
  Loaded l;
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    l.why = "no CUDA driver (libcuda.so.1 not found)";
    return l;
  }
  Driver& d = l.driver;
  // The _v2 names are what cuda.h's macros map the plain names to.
  bool ok =
      resolve(lib, d.Init, "cuInit") && resolve(lib, d.DeviceGetCount, "cuDeviceGetCount") &&
      resolve(lib, d.DeviceGet, "cuDeviceGet") &&
      resolve(lib, d.DeviceGetAttribute, "cuDeviceGetAttribute") &&
      resolve(lib, d.DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain") &&
      resolve(lib, d.CtxSetCurrent, "cuCtxSetCurrent") &&
      resolve(lib, d.ModuleLoadData, "cuModuleLoadData") &&
      resolve(lib, d.ModuleUnload, "cuModuleUnload") &&
      resolve(lib, d.ModuleGetFunction, "cuModuleGetFunction") &&
      resolve(lib, d.LaunchKernel, "cuLaunchKernel") && resolve(lib, d.MemAlloc, "cuMemAlloc_v2") &&
      resolve(lib, d.MemFree, "cuMemFree_v2") && resolve(lib, d.MemcpyHtoD, "cuMemcpyHtoD_v2") &&
      resolve(lib, d.MemcpyDtoH, "cuMemcpyDtoH_v2") && resolve(lib, d.MemsetD8, "cuMemsetD8_v2") &&
      resolve(lib, d.CtxSynchronize, "cuCtxSynchronize") &&
      resolve(lib, d.GetErrorString, "cuGetErrorString");
  if (!ok) {
    l.why = "CUDA driver too old (libcuda.so.1 lacks an entry point)";
    return l;
  }
  int count = 0;
  if (d.Init(0) != CUDA_SUCCESS || d.DeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
    l.why = "no CUDA device";
    return l;
  }
  int major = 0, minor = 0;
  if (d.DeviceGet(&d.device, 0) != CUDA_SUCCESS ||
      d.DeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d.device) !=
          CUDA_SUCCESS ||
      d.DeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d.device) !=
          CUDA_SUCCESS ||
      d.DeviceGetAttribute(&d.sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d.device) !=
          CUDA_SUCCESS ||
      d.DevicePrimaryCtxRetain(&d.context, d.device) != CUDA_SUCCESS) {
    l.why = "no CUDA device (device 0 cannot be opened)";
    return l;
  }
  d.arch = major * 10 + minor;
  l.ok = true;
  return l;
}

} // namespace

const Driver* load_driver(std::string& why) {
  static const Loaded loaded = load();
  if (!loaded.ok) {
    why = loaded.why;
    return nullptr;
  }
  loaded.driver.CtxSetCurrent(loaded.driver.context);
  return &loaded.driver;
}

void check(const Driver& d, CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  const char* s = nullptr;
  d.GetErrorString(r, &s);
  throw Error(ErrorKind::Resource, SrcLoc{},
              std::string("CUDA: ") + what + ": " + (s ? s : "unknown error"));
}

} // namespace strata::cuda
