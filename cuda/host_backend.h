// The generated CUDA C++ compiled for the host (the prelude defines
// __host__/__device__/__global__ away and S_ENTRY as a sequential loop), as a
// Backend: how tests check the code generator and the executor against the
// oracle on machines without a GPU. Not a fast engine: one work item at a time.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>

#include "cuda/executor.h"

namespace strata::cuda {

// A shared object built from generated source with the host C++ compiler
// ($CXX, else c++) and loaded with dlopen; removed from disk once loaded.
class HostModule {
public:
  // Throws Error(ErrorKind::Resource) with the compiler's output on failure.
  static std::shared_ptr<HostModule> compile(const std::string& source);
  ~HostModule();
  void* symbol(const std::string& name) const; // nullptr if absent

private:
  void* handle_ = nullptr;
};

class HostBackend final : public Backend {
public:
  explicit HostBackend(std::shared_ptr<HostModule> m) : module_(std::move(m)) {}
  uint64_t alloc(size_t bytes) override;
  void free(uint64_t address) override;
  void upload(uint64_t dst, const void* src, size_t bytes) override;
  void download(void* dst, uint64_t src, size_t bytes) override;
  void launch(const std::string& name, uint64_t table, uint64_t error, int64_t diag,
              const LaunchParams& p, int64_t n) override;

private:
  using Entry = void (*)(const long long*, void*, long long, LaunchParams, long long);
  std::shared_ptr<HostModule> module_;
  std::unordered_map<std::string, Entry> entries_;
};

} // namespace strata::cuda
