// The cuda engine's compile path without a GPU (cuda/compile.h, `strata
// compile --engine cuda --arch sm_XX`): codegen, NVRTC, the memory cache and
// the disk cache. A second process compiling the same program runs NVRTC
// zero times (every kernel `hit (disk)`), and a damaged disk entry is
// recompiled, never used. NVRTC work is kept to one small example
// (segmented_sum: two kernels, one translation unit) and one architecture.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/check.h"
#include "core/error.h"
#include "core/parser.h"
#include "cuda/compile.h"
#include "cuda/nvrtc_compile.h"
#include "oracle/registry.h"
#include "tests/cache_test_util.h"

namespace strata::test {
namespace {
namespace fs = std::filesystem;

const char* kExample = "examples/segmented_sum.strata"; // two compute kernels, fused

CachedRun compile_with_cache(const TempDir& tmp, const fs::path& cache, const std::string& tag) {
  return run_with_cache_dir(
      tmp, cache, "compile " + source_path(kExample) + " --engine cuda --arch sm_80", tag);
}

TEST(CudaCompile, ParsesArchitectures) {
  EXPECT_EQ(cuda::parse_arch("sm_80"), 80);
  EXPECT_EQ(cuda::parse_arch("sm_90"), 90);
  EXPECT_EQ(cuda::parse_arch("sm_100"), 100);
  for (const char* bad : {"", "80", "sm80", "sm_", "sm_8x", "sm_08", "compute_80", "sm_1000"}) {
    try {
      cuda::parse_arch(bad);
      ADD_FAILURE() << "accepted `" << bad << "`";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage) << bad;
    }
  }
}

TEST(CudaCompile, SecondProcessCompilesNothing) {
  TempDir tmp;
  fs::path cache = tmp / "cache";
  CachedRun first = compile_with_cache(tmp, cache, "1");
  EXPECT_EQ(count_of(first.out, "nvrtc compiles: 1\n"), 1) << first.out;
  EXPECT_EQ(count_of(first.report, "\"cache\": \"miss: not on disk\""), 2) << first.report;
  CachedRun second = compile_with_cache(tmp, cache, "2");
  EXPECT_EQ(count_of(second.out, "nvrtc compiles: 0\n"), 1) << second.out;
  EXPECT_EQ(count_of(second.out, ", hit (disk)\n"), 2) << second.out;
  EXPECT_EQ(count_of(second.report, "\"cache\": \"hit (disk)\""), 2) << second.report;
  EXPECT_EQ(count_of(second.report, "miss"), 0) << second.report;
}

TEST(CudaCompile, DamagedDiskEntriesAreRecompiled) {
  TempDir tmp;
  fs::path cache = tmp / "cache";
  compile_with_cache(tmp, cache, "1");
  ASSERT_EQ(truncate_entries(cache), 1); // one CUBIN per program
  CachedRun damaged = compile_with_cache(tmp, cache, "2");
  EXPECT_EQ(count_of(damaged.out, "nvrtc compiles: 1\n"), 1) << damaged.out;
  EXPECT_EQ(count_of(damaged.report, "\"cache\": \"miss: corrupt entry"), 2) << damaged.report;
  CachedRun again = compile_with_cache(tmp, cache, "3"); // replaced by a whole entry
  EXPECT_EQ(count_of(again.out, "nvrtc compiles: 0\n"), 1) << again.out;
  EXPECT_EQ(count_of(again.report, "\"cache\": \"hit (disk)\""), 2) << again.report;
}

// In one process, the second compile of a program is a memory hit (the
// engine's executables share it): no NVRTC, the same image.
TEST(CudaCompile, SecondCompileInAProcessIsAMemoryHit) {
  std::string text = slurp(source_path(kExample));
  Program program = parse_program(text, kExample);
  check_program(program);
  cuda::CompileCaches memory_only;
  memory_only.disk = cache::DiskOptions{};
  memory_only.disk->enabled = false;
  cuda::CompiledProgram first = cuda::compile_program(program, true, 80, memory_only);
  ASSERT_EQ(first.report.kernels.size(), 2u);
  EXPECT_FALSE(first.image.empty());
  uint64_t before = cuda::nvrtc_compile_count();
  cuda::CompiledProgram second = cuda::compile_program(program, true, 80, memory_only);
  EXPECT_EQ(cuda::nvrtc_compile_count(), before);
  EXPECT_FALSE(second.nvrtc_ran);
  EXPECT_EQ(second.image, first.image);
  ASSERT_EQ(second.report.kernels.size(), 2u);
  for (const KernelCompileInfo& k : second.report.kernels)
    EXPECT_EQ(k.cache, "hit (memory)");
  ASSERT_EQ(second.report.phases.size(), 3u);
  EXPECT_EQ(second.report.phases[0].first, "fuse");
  EXPECT_EQ(second.report.phases[1].first, "codegen");
  EXPECT_EQ(second.report.phases[2].first, "compile");
}

// CompileOptions::target through the registry (what `strata compile --arch`
// does): the executable reports its compile and NVRTC runs, and refuses to run.
TEST(CudaCompile, ATargetCompilesWithoutADeviceAndRefusesToRun) {
  const Engine* cuda = find_engine("cuda");
  ASSERT_NE(cuda, nullptr);
  EXPECT_EQ(cuda->target_help(), "a GPU architecture with --arch sm_XX");
  std::string text = slurp(source_path(kExample));
  Program program = parse_program(text, kExample);
  check_program(program);
  CompileOptions options;
  options.target = "sm_80";
  std::unique_ptr<Executable> exe = cuda->compile(program, options);
  const CompileReport& report = exe->compile_report();
  EXPECT_EQ(report.kernels.size(), 2u);
  ASSERT_EQ(report.counts.size(), 1u);
  EXPECT_EQ(report.counts[0].first, "nvrtc compiles");
  EXPECT_LE(report.counts[0].second, 1u);
  try {
    exe->run({});
    ADD_FAILURE() << "a program compiled for a target ran";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("compiled for sm_80 without a device"), std::string::npos)
        << e.what();
  }
  options.target = "compute_80";
  EXPECT_THROW(cuda->compile(program, options), Error);
}

TEST(CudaCompile, CommandLineErrors) {
  std::string file = source_path(kExample);
  CliResult r = run_cli("compile " + file + " --engine interp --arch sm_80");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--arch needs the cuda engine"), std::string::npos) << r.err;
  r = run_cli("compile " + file + " --arch 80");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("sm_XX"), std::string::npos) << r.err;
  r = run_cli("compile " + file + " --arch sm_80 --engine nosuch");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = run_cli("compile " + file + " --engine cuda");
  if (r.exit_code == 0) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("--arch sm_XX"), std::string::npos) << r.err;
}

} // namespace
} // namespace strata::test
