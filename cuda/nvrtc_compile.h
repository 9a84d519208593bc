// Run-time compilation of generated CUDA C++ with NVRTC (docs/cuda.md).
//
// Compiles one translation unit for one GPU architecture, either to PTX or
// straight to CUBIN (NVRTC then runs ptxas itself). Options pin the
// semantics: no FMA contraction (--fmad=false), IEEE division and square
// root, no flush-to-zero. A failure is an Error carrying NVRTC's log.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace strata::cuda {

struct NvrtcOutput {
  std::vector<char> image; // PTX text (NUL-terminated) or a CUBIN
  std::string log;         // NVRTC's log (warnings), possibly empty
};

// `arch` is the compute capability times ten (80 for sm_80).
NvrtcOutput nvrtc_compile(const std::string& source, int arch, bool cubin,
                          const std::string& name = "strata.cu");

// The options nvrtc_compile passes (they are part of a cache key).
std::vector<std::string> nvrtc_options(int arch, bool cubin);
// "13.0": NVRTC's version (part of a cache key).
std::string nvrtc_version();

// How many times this process has called nvrtc_compile (successful or not):
// `strata compile` prints it, so tests can see that a cache hit compiled nothing.
uint64_t nvrtc_compile_count();

} // namespace strata::cuda
