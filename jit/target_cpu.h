// The CPU the jit compiles for, in one place: the target machines
// (jit/backend.cpp), the kernels' cache keys and the lane code's vector
// width (jit/lane_codegen.cpp) all read it.
//
// It is the host's, as LLVM detects it, unless STRATA_JIT_CPU names another
// as NAME[,FEATURES] ("rocketlake", or "rocketlake,+avx512f,-amx-tile,...":
// a CPU LLVM knows for the host's triple, with its default features or the
// ones given). That is for measuring compile cost under valgrind
// (scripts/jit-compile-instructions), whose emulated CPU is not the
// machine's (it has no AVX-512, so the lanes and every vector type would be
// another target's): kernels compiled for a named CPU are never run
// (jit/backend.cpp load_kernel refuses). This header includes no LLVM.
#pragma once

#include <string>

namespace strata::jit {

struct TargetCpu {
  std::string triple;
  std::string name;     // LLVM's CPU name ("rocketlake")
  std::string features; // "+avx,+avx2,..." (empty: the CPU's defaults)
  bool host = true;     // false: named by STRATA_JIT_CPU
  int vector_bits = 0;  // of the widest vector registers: 512 (AVX-512F), 256 (AVX), 128
};

// Read once; a CPU LLVM does not know is Error(ErrorKind::Usage) naming
// STRATA_JIT_CPU, on every call.
const TargetCpu& target_cpu();

// The CPU `spec` names as STRATA_JIT_CPU does (NAME[,FEATURES]); a name
// LLVM does not know is Error(ErrorKind::Usage) naming STRATA_JIT_CPU.
TargetCpu named_cpu(const std::string& spec);

// The host's CPU as STRATA_JIT_CPU writes it: NAME,FEATURES.
std::string host_cpu_spec();

} // namespace strata::jit
