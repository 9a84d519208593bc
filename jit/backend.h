// The LLVM side of the jit engine: one process-wide ORC LLJIT for the host
// CPU, the kernels' pass pipeline, object emission, and the kernel cache in
// memory (and on disk, jit/disk.h). The only file that includes the ORC and PassBuilder
// headers is backend.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "jit/abi.h"
#include "jit/codegen.h"

namespace strata::jit {

struct LoadedKernel {
  std::vector<EntryFn> entries; // by entry index
  std::string cache;            // "hit (memory)", "hit (disk)", "miss: <why>"
};

// The entry points of `code` (built with prefix symbol_prefix(key)): from the
// in-memory cache when this process already has them, else from the disk
// cache, else optimised and compiled (then stored in both). Thread-safe.
LoadedKernel load_kernel(const std::string& key, KernelCode& code);

// The module of `code` after the pass pipeline every kernel goes through, as
// LLVM IR text (tests check what the vectoriser did); nothing is loaded.
std::string optimised_ir(KernelCode& code);

// The symbol prefix of a key's functions.
std::string symbol_prefix(const std::string& key);

// What the generated code depends on besides the kernel: LLVM version, host
// CPU name and features, pipeline options (part of every key).
std::string target_description();

// Counters (tests): kernels compiled by LLVM, and loaded from disk, in this process.
struct BackendCounters {
  uint64_t compiled = 0;
  uint64_t disk_loads = 0;
  uint64_t memory_hits = 0;
};
BackendCounters backend_counters();

} // namespace strata::jit
