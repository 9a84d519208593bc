// The pass pipeline and object emission every jit kernel goes through
// (docs/jit.md "Compile latency"), with the settings a process reads once:
// STRATA_JIT_VECLIB, STRATA_JIT_PIPELINE and the LLVM options below. Only
// jit/*.cpp include this header (it includes LLVM's).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <llvm/Support/Error.h>

#include "core/error.h"
#include "jit/backend.h"
#include "jit/llvm_module.h"

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace strata::jit {

// An LLVM error as text.
std::string llvm_error_text(llvm::Error e);

// The value of `v`, or Error(ErrorKind::Resource) "jit: <what>: <LLVM's text>".
template <class T> T llvm_check(llvm::Expected<T> v, const char* what) {
  if (!v)
    throw Error(ErrorKind::Resource,
                std::string("jit: ") + what + ": " + llvm_error_text(v.takeError()));
  return std::move(*v);
}

// Sets `m`'s data layout and triple to `tm`'s and verifies it (a broken
// module is Error(ErrorKind::Resource)): what every module goes through before
// the pipeline, or instead of it (the quick tier, jit/tiered_code.h).
void prepare_for(llvm::Module& m, llvm::TargetMachine& tm);

struct Pipeline {
  // STRATA_JIT_VECLIB: the vector math library of every compile in the
  // process (as if each asked for MathMode::Fast), or None, where each
  // compile's MathMode decides.
  Veclib veclib = Veclib::None;
  bool o3 = false; // STRATA_JIT_PIPELINE=O3: LLVM's O3 pipeline and options (comparisons)
  // The pipeline text and the LLVM options set: what the generated code
  // depends on besides the target and the vector library (part of every
  // kernel key, with those).
  std::string description;

  // Reads the environment; sets the process-wide LLVM options unless the
  // program set them already (call once, before the first compile).
  static Pipeline from_environment();

  // prepare_for(m, tm), then runs the pipeline on it for `tm` with the vectorisers `v`, letting the
  // loop vectoriser call `veclib`'s functions. STRATA_JIT_DUMP=DIR (made if missing) gets the
  // module before (DIR/<dump_name>.in.ll) and after (DIR/<dump_name>.ll) it; `dump_name` is the
  // ModulePart's (the module's name when empty).
  void optimise(llvm::Module& m, llvm::TargetMachine& tm, Veclib veclib, Vectorisers v = {},
                const std::string& dump_name = "") const;
  // optimise() for a part: its module, vectorisers and dump name.
  void optimise(ModulePart& part, llvm::TargetMachine& tm, Veclib veclib) const {
    optimise(*part.module, tm, veclib, part.vectorisers, part.dump_name);
  }
};

// Whether every function `m` defines is a run-once entry (optnone:
// FnBuilder::run_once), and it defines one.
bool runs_once(const llvm::Module& m);

// Object code of optimised modules for one target machine at its own
// optimisation level (CodeGenOptLevel::None for modules that runs_once: the
// fast register allocator, no machine scheduling; their code runs once per
// call or before an error and computes the same bits at any level), through
// one codegen pass pipeline built on the first module and run again for
// every later one: building it (addPassesToEmitFile: ~150 passes, their
// analyses scheduled) cost ~0.3 ms per module, a quarter of a small kernel's
// compile. The machine is the emitter's own and its level never changes:
// LLVM switches a machine to FastISel when it builds a pipeline at level
// None and never back, so one machine emitting at both levels selected later
// optimised modules with FastISel wherever it could (object code depending on
// what the process had compiled before). Not thread-safe: one module at a time.
class ObjectEmitter {
public:
  explicit ObjectEmitter(std::unique_ptr<llvm::TargetMachine> tm);
  ~ObjectEmitter();
  ObjectEmitter(const ObjectEmitter&) = delete;
  ObjectEmitter& operator=(const ObjectEmitter&) = delete;

  llvm::TargetMachine& machine() { return *tm_; }
  // The object file of `m` (optimised for machine()).
  std::vector<char> emit(llvm::Module& m);

private:
  struct Codegen; // the pass pipeline and the stream it writes to
  std::unique_ptr<llvm::TargetMachine> tm_;
  std::unique_ptr<Codegen> codegen_; // made by the first emit
};

} // namespace strata::jit
