// The LLVM ORC JIT engine (docs/jit.md): every kernel of the kernel graph
// compiled to native code for the host CPU, scheduled on oneTBB, with
// compiled kernels cached in memory and on disk (cache/kernel_cache.h).
#pragma once

#include <memory>

#include "core/engine.h"

namespace strata {

std::unique_ptr<Engine> make_jit_engine(); // name() == "jit"

} // namespace strata
