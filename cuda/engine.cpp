#include "cuda/engine.h"

#include <chrono>
#include <mutex>

#include "core/error.h"
#include "core/ir_walk.h"
#include "cuda/compile.h"
#include "cuda/device_backend.h"

namespace strata {
namespace {
using namespace cuda;

// A compiled program (compile.h: fuse, codegen, NVRTC through the memory and
// disk caches) loaded as a module into the device.
class CudaExecutable final : public Executable {
public:
  CudaExecutable(const Driver& d, CompiledProgram p, const ReductionOrder& order, int math_ulps)
      : p_(std::move(p)), order_(order), math_ulps_(math_ulps) {
    auto t0 = std::chrono::steady_clock::now();
    backend_ = std::make_unique<DeviceBackend>(d, p_.image);
    pool_ = std::make_unique<Pool>(*backend_);
    p_.report.phases.emplace_back(
        "load",
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    p_.image = {}; // the module holds it now
    p_.report.counts.emplace_back("nvrtc compiles", p_.nvrtc_ran ? 1 : 0);
  }

  ~CudaExecutable() override {
    try { // the pool frees its buffers first, on this thread
      backend_->make_current();
    } catch (const Error&) {
    }
  }

  std::vector<Array> run(const std::vector<Array>& inputs) override {
    std::lock_guard lock(mutex_);
    backend_->make_current();
    KernelTimes times;
    std::vector<Array> out =
        run_graph(p_.graph, p_.code, *backend_, *pool_, inputs, order_, &times);
    kernel_ms_ = std::move(times);
    return out;
  }
  std::map<int, double> kernel_run_ms() const override {
    std::lock_guard lock(mutex_);
    return kernel_ms_;
  }
  // Chunks and lanes are launch parameters: the same kernels run any order.
  ReductionOrder reduction_order() const override { return order_; }
  int math_ulps() const override { return math_ulps_; }
  const CompileReport& compile_report() const override { return p_.report; }

private:
  CompiledProgram p_;
  ReductionOrder order_;
  int math_ulps_;
  std::unique_ptr<DeviceBackend> backend_;
  std::unique_ptr<Pool> pool_; // returns buffers to backend_: declared after it
  mutable std::mutex mutex_;
  KernelTimes kernel_ms_; // of the last run that finished
};

// A program compiled for a GPU architecture without a device
// (CompileOptions::target, `strata compile --arch`): the kernel cache has its
// image; there is nothing to run it on.
class TargetOnlyExecutable final : public Executable {
public:
  TargetOnlyExecutable(CompiledProgram p, std::string target)
      : p_(std::move(p)), target_(std::move(target)) {
    p_.image = {};
    p_.report.counts.emplace_back("nvrtc compiles", p_.nvrtc_ran ? 1 : 0);
  }
  std::vector<Array> run(const std::vector<Array>&) override {
    throw Error(ErrorKind::Usage, SrcLoc{},
                "cuda engine: compiled for " + target_ + " without a device; it cannot run");
  }
  const CompileReport& compile_report() const override { return p_.report; }

private:
  CompiledProgram p_;
  std::string target_;
};

// Transcendentals are CUDA's device math library, not glibc's: within 4 ulps
// of the correctly rounded result by the maximum errors CUDA documents
// (docs/cuda.md, "Device math"), so the oracle compares a program that calls
// one under bounds; every other program stays bitwise.
int math_ulps(const Program& program) {
  bool calls = false;
  walk_nodes(
      *program.body,
      [&](Exp& e) {
        if (const auto* p = std::get_if<ex::PrimApp>(&e.node))
          calls = calls || is_libm_function(p->op);
      },
      [](Acc&) {});
  return calls ? 4 : 0;
}

class CudaEngine final : public Engine {
public:
  std::string name() const override { return "cuda"; }
  bool available(std::string& why) const override { return load_driver(why) != nullptr; }
  std::string target_help() const override { return "a GPU architecture with --arch sm_XX"; }
  std::unique_ptr<Executable> compile(const Program& program,
                                      const CompileOptions& options) const override {
    if (!options.target.empty())
      return std::make_unique<TargetOnlyExecutable>(
          compile_program(program, options.fusion, parse_arch(options.target)), options.target);
    std::string why;
    const Driver* d = load_driver(why);
    if (!d) throw Error(ErrorKind::Resource, SrcLoc{}, "cuda engine: " + why);
    return std::make_unique<CudaExecutable>(*d, compile_program(program, options.fusion, d->arch),
                                            options.order, math_ulps(program));
  }
};

} // namespace

std::unique_ptr<Engine> make_cuda_engine() {
  return std::make_unique<CudaEngine>();
}

} // namespace strata
