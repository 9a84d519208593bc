#include "core/process_memory.h"

#include <fstream>
#include <string>
#include <unistd.h>

namespace strata {

ProcessMemory process_memory() {
  ProcessMemory m;
  std::ifstream statm("/proc/self/statm");
  long size = 0, resident = 0;
  if (statm >> size >> resident)
    m.resident_mb = double(resident) * double(::sysconf(_SC_PAGESIZE)) / double(1 << 20);
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);)
    ++m.mappings;
  return m;
}

} // namespace strata
