// The cuda engine's compile step, which needs no GPU (docs/cuda.md,
// "Compiling without a GPU"): fuse, generate one CUDA C++ translation unit,
// and compile it with NVRTC to a CUBIN for an explicit architecture, through
// the process-wide memory cache and the disk cache (cache/kernel_cache.h,
// engine `cuda`). Everything up to loading the module into a device.
//
// The engine calls it with its GPU's architecture and then loads the image;
// `strata compile --engine cuda --arch sm_80` and the compile benchmarks call
// it on machines without a driver. NVRTC runs on the CPU.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cache/kernel_cache.h"
#include "core/engine.h"
#include "cuda/codegen.h"
#include "fusion/kernel_graph.h"

namespace strata::cuda {

// Which caches compile_program uses (the benchmarks turn them off to time a
// cold compile or a disk hit).
struct CompileCaches {
  bool memory = true; // the process-wide map of compiled images
  // The disk cache: nullopt reads the environment (STRATA_CACHE_DIR,
  // STRATA_CACHE=off, ...); DiskOptions{.enabled = false} turns it off.
  std::optional<cache::DiskOptions> disk;
};

struct CompiledProgram {
  KernelGraph graph;
  Generated code;
  std::vector<char> image; // CUBIN for sm_<arch>
  // Phases "fuse", "codegen", "compile" (cache lookups and NVRTC); per
  // compute kernel its cache outcome ("hit (memory)", "hit (disk)", "miss:
  // <why>") and compile time: one translation unit per program, so every
  // kernel shares one compile and one outcome, and the compile's time is the
  // first kernel's (the others 0: the kernels' times add up to the compile).
  CompileReport report;
  bool nvrtc_ran = false; // false when the image came from a cache
};

// `program` must be type-checked and outlive the result (the graph points
// into it). `arch` is the compute capability times ten (80 for sm_80).
// Throws Error(ErrorKind::Resource) with NVRTC's log when NVRTC fails.
CompiledProgram compile_program(const Program& program, bool fusion, int arch,
                                const CompileCaches& caches = {});

// "sm_80" -> 80, "sm_90" -> 90; anything else (also "compute_80") throws
// Error(ErrorKind::Usage) naming the expected form.
int parse_arch(const std::string& name);

} // namespace strata::cuda
