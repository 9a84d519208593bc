// The in-memory half of the kernel cache (cache/memory_lru.h) and the cache's
// numeric settings (cache/setting.h).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "cache/memory_lru.h"
#include "cache/setting.h"
#include "core/error.h"

namespace strata::cache {
namespace {

TEST(MemoryLru, DropsTheLeastRecentlyUsedPastTheEntryBound) {
  MemoryLru<int> lru(MemoryLimits{3, 1000});
  lru.insert("a", 1, 10);
  lru.insert("b", 2, 10);
  lru.insert("c", 3, 10);
  ASSERT_NE(lru.find("a"), nullptr); // a is now the most recently used
  lru.insert("d", 4, 10);            // drops b
  EXPECT_EQ(lru.find("b"), nullptr);
  EXPECT_EQ(*lru.find("a"), 1);
  EXPECT_EQ(*lru.find("c"), 3);
  EXPECT_EQ(*lru.find("d"), 4);
  EXPECT_EQ(lru.entries(), 3u);
  EXPECT_EQ(lru.bytes(), 30u);
}

TEST(MemoryLru, DropsPastTheByteBoundButKeepsTheNewestEntry) {
  MemoryLru<int> lru(MemoryLimits{100, 25});
  lru.insert("a", 1, 10);
  lru.insert("b", 2, 10);
  lru.insert("c", 3, 10); // 30 > 25: drops a
  EXPECT_EQ(lru.find("a"), nullptr);
  EXPECT_EQ(lru.bytes(), 20u);
  lru.insert("huge", 4, 500); // alone over the bound: everything else goes, it stays
  EXPECT_EQ(lru.entries(), 1u);
  EXPECT_EQ(*lru.find("huge"), 4);
  EXPECT_EQ(lru.bytes(), 500u);
}

TEST(MemoryLru, ReplacingAKeyRecountsItsBytes) {
  MemoryLru<std::string> lru(MemoryLimits{10, 100});
  lru.insert("k", "old", 40);
  lru.insert("k", "new", 7);
  EXPECT_EQ(lru.entries(), 1u);
  EXPECT_EQ(lru.bytes(), 7u);
  EXPECT_EQ(*lru.find("k"), "new");
}

TEST(MemoryLru, ZeroEntriesKeepsOnlyTheLastInserted) {
  MemoryLru<int> lru(MemoryLimits{0, 0});
  lru.insert("a", 1, 1);
  lru.insert("b", 2, 1);
  EXPECT_EQ(lru.entries(), 1u);
  EXPECT_EQ(lru.find("a"), nullptr);
}

std::string usage_error(const char* name, const char* value, uint64_t unit = 1) {
  ::setenv(name, value, 1);
  try {
    number_setting(name, unit);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    ::unsetenv(name);
    return e.message();
  }
  ::unsetenv(name);
  return "no error";
}

TEST(CacheSetting, ReadsWholeNumbersAndRejectsAnythingElse) {
  const char* name = "STRATA_MEMORY_CACHE_MB"; // a count (core/environment.cpp)
  ::unsetenv(name);
  EXPECT_EQ(number_setting(name), std::nullopt);
  ::setenv(name, "12", 1);
  EXPECT_EQ(number_setting(name, 1024), 12u * 1024);
  ::unsetenv(name);
  for (const char* bad : {"12x", "-1", " 3", "+3", "1.5", "12K", "99999999999999999999"})
    EXPECT_EQ(usage_error(name, bad),
              std::string(name) + "=" + bad + ": expected a non-negative whole number")
        << bad;
  // Fits as a count, overflows as megabytes.
  EXPECT_NE(usage_error(name, "18446744073709551615", 1 << 20), "no error");
}

TEST(CacheSetting, MemoryLimitsComeFromTheEnvironment) {
  ::setenv("STRATA_MEMORY_CACHE_ENTRIES", "5", 1);
  ::setenv("STRATA_MEMORY_CACHE_MB", "2", 1);
  MemoryLimits limits = memory_limits_from_environment();
  EXPECT_EQ(limits.max_entries, 5u);
  EXPECT_EQ(limits.max_bytes, 2u << 20);
  ::unsetenv("STRATA_MEMORY_CACHE_ENTRIES");
  ::unsetenv("STRATA_MEMORY_CACHE_MB");
  EXPECT_EQ(memory_limits_from_environment().max_entries, 1024u);
}

} // namespace
} // namespace strata::cache
