#include "cache/setting.h"

#include <limits>
#include <string>

#include "cache/memory_lru.h"
#include "core/environment.h"
#include "core/error.h"

namespace strata::cache {

std::optional<uint64_t> number_setting(const char* name, uint64_t unit) {
  std::optional<uint64_t> n = environment_count(name);
  if (n && *n > std::numeric_limits<uint64_t>::max() / unit)
    throw Error(ErrorKind::Usage,
                std::string(name) + "=" + std::to_string(*n) + ": too large for its unit");
  if (n) *n *= unit;
  return n;
}

MemoryLimits memory_limits_from_environment() {
  MemoryLimits limits;
  if (auto n = number_setting("STRATA_MEMORY_CACHE_ENTRIES")) limits.max_entries = *n;
  if (auto n = number_setting("STRATA_MEMORY_CACHE_MB", uint64_t(1) << 20)) limits.max_bytes = *n;
  return limits;
}

} // namespace strata::cache
