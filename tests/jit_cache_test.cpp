// The jit engine's kernel cache across processes (cache/kernel_cache.h): a
// second `strata run` of the same program compiles nothing (every kernel a
// disk hit in --report) and builds no LLVM IR (the entry's metadata,
// jit/kernel_meta.h, describes the code), processes sharing one cache
// directory at once all succeed, corrupt entries and damaged metadata are
// recompiled, never run, and a disk hit's errors name the program run.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>

#include "cache/kernel_cache.h"
#include "interpreter/interpreter.h"
#include "jit/backend.h"
#include "jit/engine.h"
#include "jit/kernel_meta.h"
#include "tests/cache_test_util.h"
#include "tests/test_util.h"

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

// This test binary again, as a child process with `env` set.
int run_child(const TempDir& tmp, const std::string& env, const std::string& filter,
              const std::string& tag) {
  std::string log = (tmp / ("child" + tag + ".log")).string();
  std::string cmd = "env " + env + " " + fs::read_symlink("/proc/self/exe").string() +
                    " --gtest_filter=" + filter + " >" + log + " 2>&1";
  int status = std::system(cmd.c_str());
  EXPECT_EQ(status, 0) << cmd << "\n" << slurp(log);
  return status;
}

// Only in a child process of DiskHitsBuildNoIR (STRATA_JIT_CACHE_CHILD names
// the file it writes): compiles and runs kProgram on the jit in this fresh
// process, then writes each kernel's cache outcome and the backend's counters.
TEST(JitCacheChild, CompileRunAndCount) {
  const char* out = std::getenv("STRATA_JIT_CACHE_CHILD");
  if (!out) GTEST_SKIP() << "runs as a child process of JitCache.DiskHitsBuildNoIR";
  Program p = parse_and_check(kProgram);
  std::unique_ptr<Executable> exe = make_jit_engine()->compile(p, CompileOptions{});
  std::vector<Array> got = exe->run({}), want = interpret(p, {});
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_TRUE(identical(got[i], want[i])) << i;
  jit::BackendCounters c = jit::backend_counters();
  std::ofstream f(out);
  for (const KernelCompileInfo& k : exe->compile_report().kernels)
    f << k.cache << "\n";
  f << "ir_built " << c.ir_built << "\ncompiled " << c.compiled << "\n";
}

TEST(JitCache, DiskHitsBuildNoIR) {
  TempDir tmp;
  fs::path cache = tmp / "cache";
  std::string filter = "JitCacheChild.CompileRunAndCount";
  for (const char* tag : {"1", "2"}) {
    fs::path out = tmp / (std::string("counts") + tag);
    ASSERT_EQ(
        run_child(tmp,
                  "STRATA_CACHE_DIR=" + cache.string() + " STRATA_JIT_CACHE_CHILD=" + out.string(),
                  filter, tag),
        0);
    std::string counts = slurp(out);
    if (std::string(tag) == "1") {
      EXPECT_EQ(count_of(counts, "miss: not on disk\n"), 2) << counts;
      EXPECT_NE(counts.find("ir_built 2\n"), std::string::npos) << counts;
    } else {
      EXPECT_EQ(count_of(counts, "hit (disk)\n"), 2) << counts; // and nothing else
      EXPECT_EQ(count_of(counts, "\n"), 4) << counts;
      EXPECT_NE(counts.find("ir_built 0\n"), std::string::npos) << counts;
      EXPECT_NE(counts.find("compiled 0\n"), std::string::npos) << counts;
    }
  }
}

// Rewrites, with a right checksum, every jit entry under `cache` that
// `change` edits (returning true) as its metadata and objects; returns how
// many it rewrote.
int rewrite_entries(
    const fs::path& cache,
    const std::function<bool(std::string_view&, std::vector<std::span<const char>>&)>& change) {
  cache::DiskCache disk("jit", cache::DiskOptions{true, cache, uint64_t(1) << 30});
  int n = 0;
  for (const auto& e : fs::directory_iterator(cache / "jit")) {
    cache::Key key{e.path().stem().string()};
    std::string why;
    std::optional<std::vector<char>> payload = disk.load(key, why);
    EXPECT_TRUE(payload) << why;
    std::string_view meta;
    std::vector<std::span<const char>> objects;
    if (!payload || !jit::unpack_entry(*payload, meta, objects) || !change(meta, objects)) continue;
    disk.store(key, jit::pack_entry(meta, objects));
    ++n;
  }
  return n;
}

// Every entry's metadata cut short by one field: the checksum is right, the
// metadata is not.
int damage_metadata(const fs::path& cache) {
  return rewrite_entries(cache, [](std::string_view& meta, std::vector<std::span<const char>>&) {
    EXPECT_GT(meta.size(), 8u);
    meta.remove_suffix(8);
    return true;
  });
}

TEST(JitCache, DamagedMetadataIsRecompiled) {
  TempDir tmp;
  fs::path cache = tmp / "cache";
  auto [out1, report1] = run_with_cache(tmp, cache, "1");
  ASSERT_EQ(damage_metadata(cache), 2);
  auto [out2, report2] = run_with_cache(tmp, cache, "2");
  EXPECT_EQ(out1, out2);
  EXPECT_EQ(count_of(report2, "\"miss: corrupt entry (metadata)\""), 2) << report2;
  auto [out3, report3] = run_with_cache(tmp, cache, "3"); // replaced by whole entries
  EXPECT_EQ(out1, out3);
  EXPECT_EQ(count_of(report3, "\"hit (disk)\""), 2) << report3;
}

// Every entry of several objects without its last one (checksum right,
// metadata right, an entry's symbol missing).
int drop_last_object(const fs::path& cache) {
  return rewrite_entries(cache, [](std::string_view&, std::vector<std::span<const char>>& objects) {
    if (objects.size() < 2) return false;
    objects.pop_back();
    return true;
  });
}

// A fold's and a scan's entries hold two objects each (their parts: the
// chunk entry is the second); without the second, the disk hit's lookup
// fails: the kernel is compiled again and added (what the failed hit had
// added is removed first, else its symbols would be defined twice), the
// entry replaced, and the result the same.
TEST(JitCache, EntryMissingAnObjectIsRecompiled) {
  TempDir tmp;
  fs::path cache = tmp / "cache";
  auto [out1, report1] = run_with_cache(tmp, cache, "1");
  ASSERT_EQ(drop_last_object(cache), 2);
  auto [out2, report2] = run_with_cache(tmp, cache, "2");
  EXPECT_EQ(out1, out2);
  EXPECT_EQ(count_of(report2, "\"miss: corrupt entry (objects: symbol lookup"), 2) << report2;
  EXPECT_EQ(count_of(report2, "\"hit (disk)\""), 0) << report2;
  auto [out3, report3] = run_with_cache(tmp, cache, "3"); // replaced by a whole entry
  EXPECT_EQ(out1, out3);
  EXPECT_EQ(count_of(report3, "\"hit (disk)\""), 2) << report3;
}

// Two programs with the same kernel text (the second shifted by two lines)
// share the cache entry; the second's error names its own file and line, as
// when it is compiled afresh.
TEST(JitCache, DiskHitErrorsNameTheProgramRun) {
  TempDir tmp;
  std::string env = "env STRATA_CACHE_DIR=" + (tmp / "cache").string() + " ";
  const char* text = "(program () (map (lambda ((x i64)) (quot 10 (- x 2)))\n"
                     "  (use (array i64 (3) 1 2 3))))\n";
  std::string p1 = tmp.write("first.strata", text);
  std::string p2 = tmp.write("second.strata", std::string(";; shifted\n\n") + text);
  auto strata = [&](const std::string& args, const std::string& tag) {
    std::string out = (tmp / ("out" + tag)).string();
    std::string cmd = env + STRATA_BINARY + " " + args + " >" + out + " 2>&1";
    int status = std::system(cmd.c_str());
    return std::make_pair(status, slurp(out));
  };
  auto [status1, err1] = strata("run " + p1 + " --engine jit", "1");
  EXPECT_NE(status1, 0) << err1;
  auto [status2, compiled2] = strata("compile " + p2 + " --engine jit", "2");
  EXPECT_EQ(status2, 0) << compiled2;
  EXPECT_EQ(count_of(compiled2, "hit (disk)"), 1) << compiled2;
  auto [status3, err3] = strata("run " + p2 + " --engine jit", "3");
  EXPECT_NE(status3, 0);
  EXPECT_NE(err3.find("second.strata:3:36: error: division by zero"), std::string::npos) << err3;
  env += "STRATA_CACHE=off "; // compiled afresh: the same error
  EXPECT_EQ(strata("run " + p2 + " --engine jit", "4").second, err3);
  EXPECT_NE(err1, err3);
}

} // namespace
} // namespace strata::test
