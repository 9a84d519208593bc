// The jit engine's kernel cache across processes (cache/kernel_cache.h): a
// second `strata run` of the same program compiles nothing (every kernel a
// disk hit in --report), processes sharing one cache directory at once all
// succeed, and corrupt entries are recompiled, never run.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "tests/cache_test_util.h"

namespace strata::test {
namespace {
namespace fs = std::filesystem;

const char* kProgram = "(program () (atuple"
                       "  (fold (lambda ((a i64) (b i64)) (+ a b)) 7 (generate (ix 3 1000)"
                       "    (lambda ((i (ix 2))) (* (proj 0 i) (proj 1 i)))))"
                       "  (scanl1 (lambda ((a i32) (b i32)) (max a b)) (generate (ix 50)"
                       "    (lambda ((i (ix 1))) (cast i32 (mod (* (proj 0 i) 37) 11)))))))\n";

// Runs `strata run` with STRATA_CACHE_DIR=dir; returns stdout and the report.
std::pair<std::string, std::string> run_with_cache(const TempDir& tmp, const fs::path& dir,
                                                   const std::string& tag) {
  std::string program = tmp.write("p.strata", kProgram);
  CachedRun r = run_with_cache_dir(tmp, dir, "run " + program + " --engine jit", tag);
  return {r.out, r.report};
}

TEST(JitCache, SecondProcessCompilesNothing) {
  TempDir tmp;
  fs::path cache = tmp / "cache";
  auto [out1, report1] = run_with_cache(tmp, cache, "1");
  auto [out2, report2] = run_with_cache(tmp, cache, "2");
  EXPECT_EQ(out1, out2);
  EXPECT_EQ(count_of(report1, "\"miss: not on disk\""), 2) << report1;
  EXPECT_EQ(count_of(report2, "\"hit (disk)\""), 2) << report2;
  EXPECT_EQ(count_of(report2, "miss"), 0) << report2;
}

TEST(JitCache, CorruptEntriesAreRecompiled) {
  TempDir tmp;
  fs::path cache = tmp / "cache";
  auto [out1, report1] = run_with_cache(tmp, cache, "1");
  ASSERT_EQ(truncate_entries(cache), 2); // one object per kernel
  auto [out2, report2] = run_with_cache(tmp, cache, "2");
  EXPECT_EQ(out1, out2);
  EXPECT_EQ(count_of(report2, "hit"), 0) << report2;
  auto [out3, report3] = run_with_cache(tmp, cache, "3"); // replaced by whole entries
  EXPECT_EQ(out1, out3);
  EXPECT_EQ(count_of(report3, "\"hit (disk)\""), 2) << report3;
}

TEST(JitCache, ConcurrentProcessesShareOneDirectory) {
  TempDir tmp;
  fs::path cache = tmp / "cache";
  std::string program = tmp.write("p.strata", kProgram);
  std::string cmd = "for i in 1 2 3 4; do env STRATA_CACHE_DIR=" + cache.string() + " " +
                    std::string(STRATA_BINARY) + " run " + program + " --engine jit >" +
                    (tmp / "out").string() + "$i 2>&1 & done; wait";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::string first = slurp(tmp / "out1");
  EXPECT_NE(first.find("7"), std::string::npos) << first;
  for (const char* i : {"2", "3", "4"})
    EXPECT_EQ(slurp(tmp / (std::string("out") + i)), first);
  auto [out, report] = run_with_cache(tmp, cache, "after");
  EXPECT_EQ(out, first);
  EXPECT_EQ(count_of(report, "\"hit (disk)\""), 2) << report;
}

} // namespace
} // namespace strata::test
