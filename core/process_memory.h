// The calling process's memory as the kernel counts it: resident set and
// number of mappings (Linux /proc; zeros elsewhere). Used by the jit's
// lifetime test and the memory benchmark to show that dropped programs give
// back what they held.
#pragma once

namespace strata {

struct ProcessMemory {
  double resident_mb = 0; // VmRSS in MiB
  long mappings = 0;      // lines of /proc/self/maps
};

ProcessMemory process_memory();

} // namespace strata
