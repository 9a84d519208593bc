// Where a compiled kernel came from, as every engine reports it
// (CompileReport, `strata compile`, --report): the cache tiers are tried
// memory, then disk, then the compiler, and the outcome strings are written
// here once.
#pragma once

#include <string>

namespace strata::cache {

inline std::string memory_hit() {
  return "hit (memory)";
}
inline std::string disk_hit() {
  return "hit (disk)";
}
// Compiled: `why` says why neither tier had it ("not on disk", "corrupt entry
// (checksum)", "disk cache off", ...).
inline std::string miss(const std::string& why) {
  return "miss: " + why;
}

} // namespace strata::cache
