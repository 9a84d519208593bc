#include "cache/setting.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>
#include <string>

#include "cache/memory_lru.h"
#include "core/error.h"

namespace strata::cache {

std::optional<uint64_t> number_setting(const char* name, uint64_t unit) {
  const char* text = std::getenv(name);
  if (!text || !*text) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  unsigned long long n =
      std::isdigit(static_cast<unsigned char>(*text)) ? std::strtoull(text, &end, 10) : 0;
  if (!end || *end != '\0' || errno == ERANGE || n > std::numeric_limits<uint64_t>::max() / unit)
    throw Error(ErrorKind::Usage,
                std::string(name) + "=" + text + ": expected a non-negative whole number");
  return uint64_t(n) * unit;
}

MemoryLimits memory_limits_from_environment() {
  MemoryLimits limits;
  if (auto n = number_setting("STRATA_MEMORY_CACHE_ENTRIES")) limits.max_entries = *n;
  if (auto n = number_setting("STRATA_MEMORY_CACHE_MB", uint64_t(1) << 20)) limits.max_bytes = *n;
  return limits;
}

} // namespace strata::cache
