// The opaque module of jit/codegen.h, for the .cpp files of jit/ that build,
// optimise and load LLVM code. Only jit/*.cpp include this header.
#pragma once

#include <memory>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "jit/codegen.h"

namespace strata::jit {

struct ModuleHandle {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
};

} // namespace strata::jit
