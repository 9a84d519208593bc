// The jit tests' look at generated code: the optimised LLVM IR of a program's
// first kernel (fused), as the engine would compile it.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "fusion/fuse.h"
#include "jit/backend.h"
#include "jit/codegen.h"
#include "tests/test_util.h"

namespace strata::test {

// `veclib`: optimised for that vector math library instead of the backend's
// own (STRATA_JIT_VECLIB).
inline std::string optimised_ir_of(const std::string& program, bool checked = true,
                                   std::optional<jit::Veclib> veclib = std::nullopt) {
  Program p = parse_and_check(program);
  KernelGraph g = build_kernel_graph(p, FusionOptions{true});
  EXPECT_FALSE(g.body.empty());
  const Kernel& k = g.body.front();
  jit::KernelCode code = jit::generate_kernel_code(
      g, k, jit::CodegenOptions{checked, int(g.arrays.size()) + k.id}, "strata_test_ir");
  return veclib ? jit::optimised_ir(code, *veclib) : jit::optimised_ir(code);
}

} // namespace strata::test
