#include "cuda/engine.h"

#include <chrono>
#include <map>
#include <mutex>

#include "cache/kernel_cache.h"
#include "core/version.h"
#include "cuda/codegen.h"
#include "cuda/device_backend.h"
#include "cuda/nvrtc_compile.h"
#include "fusion/fuse.h"

namespace strata {
namespace {
using namespace cuda;

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Compiled images, in memory and on disk (cache/kernel_cache.h), keyed by
// everything baked into them: the generated text (canonical: no sizes, no
// addresses), the NVRTC options and version, the Strata version and the
// architecture.
std::vector<char> compile_cached(const std::string& source, int arch, std::string& outcome) {
  static std::mutex mutex;
  static std::map<std::string, std::vector<char>> images;
  cache::KeyBuilder kb;
  kb.add("cuda").add(source).add(nvrtc_version()).add(version()).add("sm_" + std::to_string(arch));
  for (const std::string& o : nvrtc_options(arch, true))
    kb.add(o);
  cache::Key key = kb.finish();
  {
    std::lock_guard lock(mutex);
    auto it = images.find(key.hex);
    if (it != images.end()) {
      outcome = "hit (memory)";
      return it->second;
    }
  }
  cache::DiskCache disk("cuda", cache::disk_options_from_environment());
  std::string why;
  std::vector<char> image;
  if (auto hit = disk.load(key, why)) {
    image = std::move(*hit);
    outcome = "hit (disk)";
  } else {
    image = nvrtc_compile(source, arch, true).image;
    disk.store(key, image);
    outcome = "miss: " + why;
  }
  std::lock_guard lock(mutex);
  images.emplace(key.hex, image);
  return image;
}

class CudaExecutable final : public Executable {
public:
  CudaExecutable(const Driver& d, KernelGraph g, CompileReport& report) : graph_(std::move(g)) {
    auto t0 = std::chrono::steady_clock::now();
    code_ = generate(graph_);
    report.phases.emplace_back("codegen", ms_since(t0));
    t0 = std::chrono::steady_clock::now();
    std::string outcome;
    std::vector<char> image = compile_cached(code_.source, d.arch, outcome);
    double compile_ms = ms_since(t0);
    report.phases.emplace_back("compile", compile_ms);
    t0 = std::chrono::steady_clock::now();
    backend_ = std::make_unique<DeviceBackend>(d, image);
    pool_ = std::make_unique<Pool>(*backend_);
    report.phases.emplace_back("load", ms_since(t0));
    // One translation unit per program: every kernel shares its compile.
    for (const Kernel* k : compute_kernels(graph_))
      report.kernels.push_back({k->id, compile_ms, outcome});
    report_ = report;
  }

  std::vector<Array> run(const std::vector<Array>& inputs) override {
    std::lock_guard lock(mutex_);
    return run_graph(graph_, code_, *backend_, *pool_, inputs);
  }
  const CompileReport& compile_report() const override { return report_; }

private:
  KernelGraph graph_;
  Generated code_;
  std::unique_ptr<DeviceBackend> backend_;
  std::unique_ptr<Pool> pool_; // returns buffers to backend_: declared after it
  CompileReport report_;
  std::mutex mutex_;
};

class CudaEngine final : public Engine {
public:
  std::string name() const override { return "cuda"; }
  bool available(std::string& why) const override { return load_driver(why) != nullptr; }
  std::unique_ptr<Executable> compile(const Program& program,
                                      const CompileOptions& options) const override {
    std::string why;
    const Driver* d = load_driver(why);
    if (!d) throw Error(ErrorKind::Resource, SrcLoc{}, "cuda engine: " + why);
    CompileReport report;
    auto t0 = std::chrono::steady_clock::now();
    KernelGraph g = build_kernel_graph(program, FusionOptions{options.fusion});
    report.phases.emplace_back("fuse", ms_since(t0));
    return std::make_unique<CudaExecutable>(*d, std::move(g), report);
  }
};

} // namespace

std::unique_ptr<Engine> make_cuda_engine() {
  return std::make_unique<CudaEngine>();
}

} // namespace strata
