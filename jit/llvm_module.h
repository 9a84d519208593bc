// The opaque module of jit/codegen.h, for the .cpp files of jit/ that build,
// optimise and load LLVM code. Only jit/*.cpp include this header.
#pragma once

#include <memory>
#include <vector>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "jit/codegen.h"

namespace strata::jit {

// One part of a kernel's code: its own context and module, so that the parts
// are optimised and compiled on separate threads (docs/jit.md "Compile
// latency"). An entry of one part may call an entry of another by name: the
// LLJIT resolves it when the parts' objects are linked.
// Which of LLVM's vectorisers a part's pipeline runs.
struct Vectorisers {
  bool loops = true;         // the loop vectoriser
  bool straight_line = true; // the SLP vectoriser
};

struct ModulePart {
  std::unique_ptr<llvm::LLVMContext> context; // outlives `module` (declared first)
  std::unique_ptr<llvm::Module> module;
  // What the part is, for STRATA_JIT_DUMP's file names: program, kernel id,
  // source operations, part, and the key's first digits
  // ("kmeans_step.k0.generate+fold1.part1.7de324c9").
  std::string dump_name;
  // The vectorisers the pass pipeline runs on this part (KernelBuilder::mod
  // decides; docs/jit.md "Vectorisers by kernel"): either costs compile time
  // wherever it has nothing to take.
  Vectorisers vectorisers;
};

struct ModuleHandle {
  std::vector<ModulePart> parts; // part 0 first; at most kMaxObjects (jit/kernel_meta.h)
};

} // namespace strata::jit
