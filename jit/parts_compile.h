// A kernel's parts (jit/llvm_module.h) through the pipeline to object code,
// all at the same time: part 0 on the calling thread, the others on threads
// of their own, each with its own TargetMachine. Only jit/*.cpp include this
// header (it includes LLVM's).
#pragma once

#include <memory>
#include <vector>

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/Target/TargetMachine.h>

#include "jit/llvm_module.h"
#include "jit/llvm_pipeline.h"

namespace strata::jit {

// What a compile cost: the pipeline and object emission in thread CPU time
// summed over the parts (which run at the same time), and the wall time of
// both steps for all parts.
struct PartsTimes {
  double optimise_ms = 0;
  double emit_ms = 0;
  double wall_ms = 0;
  size_t run_once_parts = 0; // parts emitted without optimisation (runs_once)
};

// Not thread-safe: one compile at a time (the backend's lock).
class PartsCompiler {
public:
  explicit PartsCompiler(llvm::orc::JITTargetMachineBuilder jtmb) : jtmb_(std::move(jtmb)) {}

  // The target machine of part `part` at the builder's level, made on first
  // use: a process that only loads objects from disk makes none.
  llvm::TargetMachine& machine(size_t part);

  // The object code of every part of `h`, optimised by `pipeline` for the
  // vector math library `veclib`; the times are added to `times`. With
  // `quick` (the quick tier, jit/tiered_code.h) no part goes through the
  // pipeline and every part is emitted at CodeGenOptLevel::None.
  std::vector<std::vector<char>> compile(ModuleHandle& h, const Pipeline& pipeline, Veclib veclib,
                                         PartsTimes& times, bool quick = false);

private:
  // Part `part`'s emitter: at the builder's level, or at CodeGenOptLevel::None
  // for a module that runs_once; made on first use.
  ObjectEmitter& emitter(size_t part, bool run_once);

  llvm::orc::JITTargetMachineBuilder jtmb_;
  std::vector<std::unique_ptr<ObjectEmitter>> optimised_; // by part
  std::vector<std::unique_ptr<ObjectEmitter>> run_once_;  // by part
};

} // namespace strata::jit
