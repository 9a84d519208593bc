#include "cuda/host_backend.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/error.h"

namespace strata::cuda {

std::shared_ptr<HostModule> HostModule::compile(const std::string& source) {
  namespace fs = std::filesystem;
  std::string templ = (fs::temp_directory_path() / "strata-cuda-host-XXXXXX").string();
  if (!mkdtemp(templ.data()))
    throw Error(ErrorKind::Resource, SrcLoc{}, "cannot make a temporary directory");
  fs::path dir = templ;
  struct Cleanup {
    fs::path d;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(d, ec);
    }
  } cleanup{dir};
  std::ofstream(dir / "kernels.cpp") << source;
  const char* cxx = std::getenv("CXX");
  std::string cmd = std::string(cxx && *cxx ? cxx : "c++") +
                    " -std=c++17 -O0 -ffp-contract=off -fPIC -shared -w -o " +
                    (dir / "kernels.so").string() + " " + (dir / "kernels.cpp").string() + " > " +
                    (dir / "log.txt").string() + " 2>&1";
  if (std::system(cmd.c_str()) != 0) {
    std::ifstream log(dir / "log.txt");
    std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
    throw Error(ErrorKind::Resource, SrcLoc{},
                "host compile of generated CUDA code failed:\n" + text.substr(0, 4000));
  }
  auto m = std::shared_ptr<HostModule>(new HostModule);
  m->handle_ = dlopen((dir / "kernels.so").c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!m->handle_) throw Error(ErrorKind::Resource, SrcLoc{}, std::string("dlopen: ") + dlerror());
  return m;
}

HostModule::~HostModule() {
  if (handle_) dlclose(handle_);
}

void* HostModule::symbol(const std::string& name) const {
  return dlsym(handle_, name.c_str());
}

uint64_t HostBackend::alloc(size_t bytes) {
  void* p = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
  if (!p) throw Error(ErrorKind::Resource, SrcLoc{}, "out of memory");
  std::memset(p, 0, bytes);
  return uint64_t(reinterpret_cast<uintptr_t>(p));
}
void HostBackend::free(uint64_t address) {
  std::free(reinterpret_cast<void*>(uintptr_t(address)));
}
void HostBackend::upload(uint64_t dst, const void* src, size_t bytes) {
  std::memcpy(reinterpret_cast<void*>(uintptr_t(dst)), src, bytes);
}
void HostBackend::download(void* dst, uint64_t src, size_t bytes) {
  std::memcpy(dst, reinterpret_cast<const void*>(uintptr_t(src)), bytes);
}

void HostBackend::launch(const std::string& name, uint64_t table, uint64_t error, int64_t diag,
                         const LaunchParams& p, int64_t n) {
  auto it = entries_.find(name);
  if (it == entries_.end()) {
    auto f = reinterpret_cast<Entry>(module_->symbol(name + "_h"));
    if (!f) throw Error(ErrorKind::Resource, SrcLoc{}, "generated entry `" + name + "` not found");
    it = entries_.emplace(name, f).first;
  }
  it->second(reinterpret_cast<const long long*>(uintptr_t(table)),
             reinterpret_cast<void*>(uintptr_t(error)), diag, p, n);
}

} // namespace strata::cuda
