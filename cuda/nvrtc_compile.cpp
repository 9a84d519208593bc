#include "cuda/nvrtc_compile.h"

#include <nvrtc.h>

#include <atomic>

#include "core/error.h"

namespace strata::cuda {

namespace {

[[noreturn]] void fail(const std::string& what, nvrtcResult r, const std::string& log = "") {
  throw Error(ErrorKind::Resource, SrcLoc{},
              "NVRTC: " + what + ": " + nvrtcGetErrorString(r) + (log.empty() ? "" : "\n" + log));
}

// Destroys the program on every path.
struct Program {
  nvrtcProgram p = nullptr;
  ~Program() {
    if (p) nvrtcDestroyProgram(&p);
  }
};

std::atomic<uint64_t> compiles{0};

} // namespace

uint64_t nvrtc_compile_count() {
  return compiles.load();
}

std::vector<std::string> nvrtc_options(int arch, bool cubin) {
  std::string a = std::to_string(arch);
  return {cubin ? "--gpu-architecture=sm_" + a : "--gpu-architecture=compute_" + a,
          "--std=c++17",
          "--fmad=false",
          "--prec-div=true",
          "--prec-sqrt=true",
          "--ftz=false"};
}

std::string nvrtc_version() {
  int major = 0, minor = 0;
  nvrtcVersion(&major, &minor);
  return std::to_string(major) + "." + std::to_string(minor);
}

NvrtcOutput nvrtc_compile(const std::string& source, int arch, bool cubin,
                          const std::string& name) {
  ++compiles;
  Program prog;
  nvrtcResult r = nvrtcCreateProgram(&prog.p, source.c_str(), name.c_str(), 0, nullptr, nullptr);
  if (r != NVRTC_SUCCESS) fail("creating the program", r);
  std::vector<std::string> options = nvrtc_options(arch, cubin);
  std::vector<const char*> argv;
  for (const std::string& o : options)
    argv.push_back(o.c_str());
  r = nvrtcCompileProgram(prog.p, int(argv.size()), argv.data());
  NvrtcOutput out;
  size_t log_size = 0;
  if (nvrtcGetProgramLogSize(prog.p, &log_size) == NVRTC_SUCCESS && log_size > 1) {
    out.log.resize(log_size);
    nvrtcGetProgramLog(prog.p, out.log.data());
    out.log.resize(log_size - 1);
  }
  if (r != NVRTC_SUCCESS) fail("compiling " + name + " for sm_" + std::to_string(arch), r, out.log);
  size_t size = 0;
  if (cubin) {
    r = nvrtcGetCUBINSize(prog.p, &size);
    if (r != NVRTC_SUCCESS) fail("getting the CUBIN", r);
    out.image.resize(size);
    r = nvrtcGetCUBIN(prog.p, out.image.data());
  } else {
    r = nvrtcGetPTXSize(prog.p, &size);
    if (r != NVRTC_SUCCESS) fail("getting the PTX", r);
    out.image.resize(size);
    r = nvrtcGetPTX(prog.p, out.image.data());
  }
  if (r != NVRTC_SUCCESS) fail("reading the output", r);
  return out;
}

} // namespace strata::cuda
