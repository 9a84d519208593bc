#include "core/environment.h"

namespace strata {

const std::vector<EnvironmentVariable>& environment_variables() {
  static const std::vector<EnvironmentVariable> table = {
      {"STRATA_MEMORY_LIMIT", "BYTES (2G, 512M, ...)",
       "the most array memory a run may hold (default: the machine's available memory)"},
      {"STRATA_CACHE", "off", "turns the kernel cache on disk off (jit, cuda)"},
      {"STRATA_CACHE_DIR", "DIR",
       "the kernel cache on disk (default $XDG_CACHE_HOME/strata, else ~/.cache/strata)"},
      {"STRATA_CACHE_MAX_MB", "N", "the disk cache's size bound in MiB (default 512)"},
      {"STRATA_MEMORY_CACHE_ENTRIES", "N",
       "compiled kernels each engine keeps in memory (default 1024)"},
      {"STRATA_MEMORY_CACHE_MB", "N", "their bytes, in MiB (default 256)"},
      {"STRATA_JIT_VECLIB", "none|libmvec",
       "libmvec: every jit compile uses fast math, as --math fast (default none: each "
       "compile's --math)"},
      {"STRATA_JIT_TIERS", "tiered|optimised|quick",
       "tiered (default): a missed jit kernel runs a quick compile first, then its optimised "
       "code once a background thread has it; optimised: wait for it; quick: never optimise"},
      {"STRATA_JIT_PIPELINE", "O3", "the jit runs LLVM's O3 pipeline instead of its own"},
      {"STRATA_JIT_DUMP", "DIR",
       "the jit writes the LLVM IR of every kernel it compiles into DIR (made if missing)"},
      {"STRATA_JIT_CPU", "NAME[,FEATURES]",
       "the jit compiles for this CPU instead of the machine's, and runs nothing (for measuring "
       "compile cost under valgrind)"},
      {"STRATA_MPI_MIN_BLOCK_BYTES", "BYTES",
       "mpi: arrays smaller than this stay whole on every rank (default 64K; 0: all in blocks)"},
      {"STRATA_COUNTEREXAMPLES", "DIR",
       "strata_properties: where failing cases are saved (default ./counterexamples)"},
  };
  return table;
}

} // namespace strata
