// `strata cache stats|clear`: counts what another process stored, empties it.
#include <cstdlib>

#include <gtest/gtest.h>

#include "cache/kernel_cache.h"
#include "tests/cli_util.h"

namespace strata::test {
namespace {

TEST(CacheCli, StatsCountsEntriesAndClearEmpties) {
  TempDir dir;
  cache::DiskOptions o;
  o.dir = dir.path();
  std::string payload(2048, 'x');
  cache::DiskCache("jit", o).store(cache::KeyBuilder().add("a").finish(), payload);
  cache::DiskCache("jit", o).store(cache::KeyBuilder().add("b").finish(), payload);
  cache::DiskCache("cuda", o).store(cache::KeyBuilder().add("a").finish(), payload);

  CliResult stats = run_cli("cache stats --dir " + dir.path().string());
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_NE(stats.out.find("entries:   3"), std::string::npos) << stats.out;
  EXPECT_NE(stats.out.find("jit: 2 entries"), std::string::npos) << stats.out;
  EXPECT_NE(stats.out.find("cuda: 1 entries"), std::string::npos) << stats.out;

  CliResult clear = run_cli("cache clear --dir " + dir.path().string());
  ASSERT_EQ(clear.exit_code, 0) << clear.err;
  EXPECT_NE(clear.out.find("removed 3 entries"), std::string::npos) << clear.out;
  EXPECT_EQ(cache::disk_stats(o).entries, 0u);
}

TEST(CacheCli, StatsHonoursTheEnvironment) {
  TempDir dir;
  cache::DiskOptions o;
  o.dir = dir.path();
  cache::DiskCache("jit", o).store(cache::KeyBuilder().add("a").finish(), std::string(10, 'x'));
  ::setenv("STRATA_CACHE_DIR", dir.path().c_str(), 1);
  CliResult r = run_cli("cache stats");
  ::unsetenv("STRATA_CACHE_DIR");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("directory: " + dir.path().string()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("entries:   1"), std::string::npos) << r.out;
  r = run_cli("cache stats --help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("STRATA_CACHE_DIR"), std::string::npos) << r.out;
}

TEST(CacheCli, BadSubcommandIsAUsageError) {
  CliResult r = run_cli("cache frob");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("expected `stats` or `clear`"), std::string::npos) << r.err;
}

} // namespace
} // namespace strata::test
