// The CUDA driver API, loaded at run time with dlopen("libcuda.so.1"), so
// the same binary runs on machines without a driver or a GPU (docs/cuda.md: an
// unavailable engine says why and is skipped). Only the few entry points the
// engine uses are resolved; types come from the toolkit's cuda.h.
#pragma once

#include <cuda.h>

#include <string>

namespace strata::cuda {

struct Driver {
  decltype(&cuInit) Init = nullptr;
  decltype(&cuDeviceGetCount) DeviceGetCount = nullptr;
  decltype(&cuDeviceGet) DeviceGet = nullptr;
  decltype(&cuDeviceGetAttribute) DeviceGetAttribute = nullptr;
  decltype(&cuDevicePrimaryCtxRetain) DevicePrimaryCtxRetain = nullptr;
  decltype(&cuCtxSetCurrent) CtxSetCurrent = nullptr;
  decltype(&cuModuleLoadData) ModuleLoadData = nullptr;
  decltype(&cuModuleUnload) ModuleUnload = nullptr;
  decltype(&cuModuleGetFunction) ModuleGetFunction = nullptr;
  decltype(&cuLaunchKernel) LaunchKernel = nullptr;
  decltype(&cuMemAlloc) MemAlloc = nullptr;
  decltype(&cuMemFree) MemFree = nullptr;
  decltype(&cuMemcpyHtoD) MemcpyHtoD = nullptr;
  decltype(&cuMemcpyDtoH) MemcpyDtoH = nullptr;
  decltype(&cuMemsetD8) MemsetD8 = nullptr;
  decltype(&cuCtxSynchronize) CtxSynchronize = nullptr;
  decltype(&cuGetErrorString) GetErrorString = nullptr;

  CUdevice device = 0;
  CUcontext context = nullptr;
  int arch = 0; // compute capability * 10
  int sms = 0;  // multiprocessors
};

// The driver with a current context on device 0, or nullptr with `why` set
// ("no CUDA driver (libcuda.so.1 not found)", "no CUDA device"). Loaded once.
const Driver* load_driver(std::string& why);

// Throws Error(ErrorKind::Resource) naming `what` unless r is CUDA_SUCCESS.
void check(const Driver& d, CUresult r, const char* what);

} // namespace strata::cuda
