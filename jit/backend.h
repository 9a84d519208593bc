// The LLVM side of the jit engine: one process-wide ORC LLJIT for the host
// CPU, the kernels' pass pipeline, object emission, and the kernel cache in
// memory and on disk (cache/tiered.h; entries laid out by jit/kernel_meta.h).
// backend.cpp puts together jit/llvm_pipeline.h, jit/parts_compile.h and
// jit/lljit_host.h, the only headers that include ORC and the PassBuilder;
// this header includes no LLVM.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/engine.h"
#include "jit/abi.h"
#include "jit/codegen.h"

namespace strata::jit {

// The vector math library the loop vectoriser may call (docs/jit.md "Vector
// math library"): None, the default, keeps every `exp log sin ...` a scalar C
// library call, bitwise the interpreter's; Libmvec (MathMode::Fast) lets it
// call glibc's vector variants (_ZGV...), a few ULP away.
enum class Veclib { None, Libmvec };

// A kernel to load: kernel `kernel` of `graph` (temporary array `temp_id`),
// and how to build its LLVM IR (generate_kernel_code with prefix
// symbol_prefix(key), CodegenOptions::quick_tier as asked) when the caches do
// not have it, to be optimised for `veclib` (which its key names:
// target_description(veclib)).
struct KernelSource {
  const KernelGraph& graph;
  const Kernel& kernel;
  int temp_id = -1;
  std::function<KernelCode(bool quick_tier)> build;
  Veclib veclib = Veclib::None;
};

// A kernel's code loaded in the process's LLJIT: its own JITDylib (code and
// data memory, symbols, resource tracker), removed when the last holder lets
// go. Holders: the executables that run the kernel and the in-memory cache
// (cache/memory_lru.h, STRATA_MEMORY_CACHE_ENTRIES/_MB), which keeps the most
// recently used kernels for later compiles.
struct ResidentCode;
class TieredCode; // jit/tiered_code.h: the entries, quick tier first

// How a miss is compiled (STRATA_JIT_TIERS, read once; docs/jit.md "Tiers"):
// Tiered, the default, loads the quick tier (no pass pipeline,
// CodeGenOptLevel::None) and queues the optimised compile, whose code runs
// once loaded and is what the disk cache stores; Optimised compiles the
// optimised code before the kernel runs; Quick loads only the quick tier
// (tests run both tiers against the oracle this way) and stores nothing on
// disk. Compiles with a vector math library (Veclib::Libmvec) are always
// Optimised: their quick tier would call the scalar functions, whose bits differ.
enum class TierMode { Tiered, Optimised, Quick };
// unset or empty is Tiered; "tiered", "optimised", "quick"; anything else is
// a usage Error naming the accepted values.
TierMode parse_tier_mode(const char* value);
TierMode active_tier_mode();

struct LoadedKernel {
  std::shared_ptr<const TieredCode> tiers; // the entries, by entry index
  KernelCode code;                         // without module
  // "hit (memory)", "hit (disk)", "miss: <why>"; a hit whose stored site
  // table cannot be tied to this kernel's expressions (jit/kernel_meta.h
  // Unbound) says "... (IR built for the site table)"; a miss that runs its
  // quick tier first ends in " (quick tier first)".
  std::string cache;
  double codegen_ms = 0; // building IR (none on a hit), wall
  // A miss only: the pass pipeline and instruction selection to object files,
  // thread CPU time summed over the kernel's parts (which run at the same
  // time), and the wall time of both steps for all parts.
  double optimise_ms = 0;
  double emit_ms = 0;
  double llvm_ms = 0;
};

// The entry points and code description of a kernel: from the in-memory
// cache when this process already has them, else from the disk cache (object
// and jit/kernel_meta.h metadata: no IR is built), else built, optimised and
// compiled (then stored in both). Thread-safe.
LoadedKernel load_kernel(const std::string& key, const KernelSource& source);

// The value of STRATA_JIT_VECLIB, read once when the backend starts: unset,
// empty or "none" is None, "libmvec" is Libmvec; anything else is a usage
// Error naming the accepted values.
Veclib parse_veclib(const char* value);
// The vector math library of this process's backend (STRATA_JIT_VECLIB):
// Libmvec makes every compile use it, None leaves it to each compile's MathMode.
Veclib active_veclib();
// The vector math library of a compile asking for `math`.
Veclib veclib_for(MathMode math);

// The module of `code` after the pass pipeline every kernel goes through, as
// LLVM IR text (tests check what the vectoriser did); nothing is loaded. The
// second form optimises for `veclib` instead of the backend's own.
std::string optimised_ir(KernelCode& code);
std::string optimised_ir(KernelCode& code, Veclib veclib);

// A cold compile of `code`'s modules for measurements (bench/jit_compile_bench.cpp),
// as a miss compiles them (its parts at the same time): the pass pipeline and
// object emission in thread CPU time summed over the parts, and the wall time
// of both; nothing is cached or loaded, and the modules are consumed.
struct ColdCompile {
  double optimise_ms = 0;
  double emit_ms = 0;
  double wall_ms = 0;
  size_t parts = 0;
  size_t run_once_parts = 0; // of those, emitted without optimisation (run-once entries only)
  std::vector<std::vector<char>> objects; // by part
  size_t object_bytes() const {
    size_t n = 0;
    for (const std::vector<char>& o : objects)
      n += o.size();
    return n;
  }
};
// With `quick`, the quick tier's compile (jit/tiered_code.h).
ColdCompile compile_uncached(KernelCode& code, bool quick = false);

// The symbol prefix of a key's functions.
std::string symbol_prefix(const std::string& key);

// What the generated code depends on besides the kernel: LLVM version, host
// CPU name and features, pipeline options, vector math library (part of every
// key); without an argument, of the backend's own (STRATA_JIT_VECLIB).
std::string target_description(Veclib veclib);
std::string target_description();

// Makes the process's backend (its LLJIT, target machines' builder, disk
// cache) and warms it up (LljitHost::warm_up, the key's hash of the target):
// the jit engine's Engine::prepare runs it on a thread of its own. Never
// throws: a backend that cannot be made is made again, and its error
// reported, by the first compile.
void prepare_backend();

// Counters (tests): kernels compiled by LLVM, loaded from disk, found in
// memory, and LLVM modules built (KernelSource::build) by load_kernel, in
// this process; kernels whose code was removed from the LLJIT, and those
// loaded now (held by an executable or by the memory cache).
struct BackendCounters {
  uint64_t compiled = 0;
  uint64_t disk_loads = 0;
  uint64_t memory_hits = 0;
  uint64_t ir_built = 0;
  uint64_t quick_compiled = 0; // misses loaded as a quick tier (of `compiled`)
  uint64_t upgraded = 0;       // quick tiers whose optimised code was loaded later
  uint64_t released = 0;
  uint64_t resident = 0;
  uint64_t cached = 0;            // entries of the memory cache
  uint64_t cached_bytes = 0;      // their object bytes
  uint64_t cache_max_entries = 0; // the memory cache's bound (STRATA_MEMORY_CACHE_ENTRIES)
  bool warmed_up = false;         // the backend's warm-up link worked (LljitHost::warm_up)
};
BackendCounters backend_counters();

} // namespace strata::jit
