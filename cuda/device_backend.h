// The executor's Backend on a GPU through the driver API (driver.h): device
// memory, copies, and grid-stride launches of a loaded module's entries.
#pragma once

#include <string>
#include <unordered_map>

#include "cuda/driver.h"
#include "cuda/executor.h"

namespace strata::cuda {

class DeviceBackend final : public Backend {
public:
  // Loads `image` (CUBIN or PTX) as a module in the driver's context.
  DeviceBackend(const Driver& d, const std::vector<char>& image);
  ~DeviceBackend() override;
  DeviceBackend(const DeviceBackend&) = delete;
  DeviceBackend& operator=(const DeviceBackend&) = delete;

  // Makes the driver's context current on the calling thread: a CUDA context
  // is current per thread, and an executable may run (and be destroyed) on
  // any thread, not only the one that compiled it.
  void make_current() const;

  uint64_t alloc(size_t bytes) override;
  void free(uint64_t address) override;
  void upload(uint64_t dst, const void* src, size_t bytes) override;
  void download(void* dst, uint64_t src, size_t bytes) override;
  void launch(const std::string& name, uint64_t table, uint64_t error, int64_t diag,
              const LaunchParams& p, int64_t n) override;

private:
  const Driver& d_;
  CUmodule module_ = nullptr;
  std::unordered_map<std::string, CUfunction> functions_;
};

} // namespace strata::cuda
