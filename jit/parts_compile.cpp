#include "jit/parts_compile.h"

#include <chrono>
#include <ctime>
#include <exception>
#include <future>
#include <system_error>

namespace strata::jit {
namespace {

double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

} // namespace

ObjectEmitter& PartsCompiler::emitter(size_t part, bool run_once) {
  std::vector<std::unique_ptr<ObjectEmitter>>& emitters = run_once ? run_once_ : optimised_;
  if (emitters.size() <= part) emitters.resize(part + 1);
  if (!emitters[part]) {
    llvm::orc::JITTargetMachineBuilder b = jtmb_;
    if (run_once) b.setCodeGenOptLevel(llvm::CodeGenOptLevel::None);
    emitters[part] =
        std::make_unique<ObjectEmitter>(llvm_check(b.createTargetMachine(), "target machine"));
  }
  return *emitters[part];
}

llvm::TargetMachine& PartsCompiler::machine(size_t part) {
  return emitter(part, false).machine();
}

std::vector<std::vector<char>> PartsCompiler::compile(ModuleHandle& h, const Pipeline& pipeline,
                                                      Veclib veclib, PartsTimes& times,
                                                      bool quick) {
  auto start = std::chrono::steady_clock::now();
  size_t n = h.parts.size();
  std::vector<std::vector<char>> objects(n);
  std::vector<double> optimise_ms(n), emit_ms(n);
  // Parts of run-once entries only are emitted unoptimised (ObjectEmitter);
  // the machines and emitters are made here, one thread at a time.
  std::vector<char> once(n);
  std::vector<llvm::TargetMachine*> machines(n);
  std::vector<ObjectEmitter*> emitters(n);
  for (size_t i = 0; i < n; ++i) {
    once[i] = quick || runs_once(*h.parts[i].module);
    machines[i] = &machine(i);
    emitters[i] = &emitter(i, once[i]);
  }
  auto part = [&](size_t i) {
    double t0 = thread_cpu_ms();
    if (quick)
      prepare_for(*h.parts[i].module, *machines[i]);
    else
      pipeline.optimise(h.parts[i], *machines[i], veclib);
    double t1 = thread_cpu_ms();
    objects[i] = emitters[i]->emit(*h.parts[i].module);
    optimise_ms[i] = t1 - t0;
    emit_ms[i] = thread_cpu_ms() - t1;
  };
  // Parts 1.. on threads of their own (not TBB's: its idle workers spin
  // while the caller works, which on a busy machine takes the CPU from the
  // part the caller compiles); part 0 on this thread. A part whose thread
  // cannot be started (a thread limit) is compiled on this thread after
  // part 0.
  std::vector<std::future<void>> others;
  std::vector<size_t> here{0};
  for (size_t i = 1; i < n; ++i) {
    try {
      others.push_back(std::async(std::launch::async, part, i));
    } catch (const std::system_error&) {
      here.push_back(i);
    }
  }
  std::exception_ptr failed;
  try {
    for (size_t i : here)
      part(i);
  } catch (...) {
    failed = std::current_exception();
  }
  for (std::future<void>& f : others) {
    try {
      f.get();
    } catch (...) {
      if (!failed) failed = std::current_exception();
    }
  }
  if (failed) std::rethrow_exception(failed);
  for (size_t i = 0; i < n; ++i) {
    times.run_once_parts += once[i] && !quick ? 1 : 0;
    times.optimise_ms += optimise_ms[i];
    times.emit_ms += emit_ms[i];
  }
  times.wall_ms +=
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return objects;
}

} // namespace strata::jit
