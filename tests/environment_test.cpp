// The environment variables in one place (core/environment.h): every
// STRATA_* name the sources read is in the table and on docs/environment.md,
// `strata --help` lists each with the engines of this build, and every
// malformed value is a usage error naming the variable, whatever reads it.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <string>

#include "core/array.h"
#include "core/environment.h"
#include "core/error.h"
#include "oracle/registry.h"
#include "tests/cli_util.h"

namespace strata::test {
namespace {
namespace fs = std::filesystem;

std::set<std::string> table_names() {
  std::set<std::string> names;
  for (const EnvironmentVariable& v : environment_variables())
    names.insert(v.name);
  return names;
}

TEST(Environment, EveryVariableTheSourcesReadIsInTheTableAndTheDocs) {
  // A quoted STRATA_ name in the library, engines, command and properties:
  // the name of a variable they read (or name in a message about it).
  const std::regex quoted("\"(STRATA_[A-Z0-9_]+)");
  std::set<std::string> read;
  for (const char* dir : {"core", "cache", "interpreter", "fusion", "parallel", "tbb", "jit",
                          "cuda", "oracle", "tools", "frontend", "properties"}) {
    if (!fs::exists(source_path(dir))) continue;
    for (const auto& e : fs::recursive_directory_iterator(source_path(dir))) {
      std::string ext = e.path().extension().string();
      if (ext != ".cpp" && ext != ".h") continue;
      std::string text = slurp(e.path());
      for (std::sregex_iterator it(text.begin(), text.end(), quoted), end; it != end; ++it)
        read.insert((*it)[1].str());
    }
  }
  EXPECT_GE(read.size(), 8u);
  std::set<std::string> table = table_names();
  for (const std::string& name : read)
    EXPECT_EQ(table.count(name), 1u) << name << " is read but not in core/environment.cpp";
  std::string docs = slurp(source_path("docs/environment.md"));
  for (const std::string& name : table)
    EXPECT_NE(docs.find("`" + name + "`"), std::string::npos)
        << name << " is not described in docs/environment.md";
}

TEST(Environment, HelpListsEveryVariableAndEngine) {
  CliResult r = run_cli("--help");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const std::string& name : table_names())
    EXPECT_NE(r.out.find("  " + name + "="), std::string::npos) << name << "\n" << r.out;
  for (const Engine* e : all_engines())
    EXPECT_NE(r.out.find(e->name()), std::string::npos) << e->name();
  CliResult run = run_cli("run --help");
  EXPECT_NE(run.out.find("engine to run on: " + engine_names()), std::string::npos) << run.out;
}

TEST(Environment, BytesAreWholeNumbersWithAnOptionalBinaryUnit) {
  EXPECT_EQ(parse_bytes("0"), 0u);
  EXPECT_EQ(parse_bytes("1048576"), 1048576u);
  EXPECT_EQ(parse_bytes("64K"), 65536u);
  EXPECT_EQ(parse_bytes("512M"), 512u << 20);
  EXPECT_EQ(parse_bytes("2G"), uint64_t(2) << 30);
  EXPECT_EQ(parse_bytes("3k"), 3u << 10);
  EXPECT_EQ(parse_bytes("18446744073709551615"), UINT64_MAX);
  for (const char* bad : {"", "lots", "1.5G", "-5", "+5", " 5", "5 ", "2T", "5KB",
                          "18446744073709551616", "17179869184G"})
    EXPECT_EQ(parse_bytes(bad), std::nullopt) << bad;
}

// Each malformed value stops `strata` before anything runs (exit 2), even
// where the run would not read it (the interpreter and STRATA_JIT_*), with
// one line naming the variable, the value and what it takes.
TEST(Environment, EveryMalformedValueIsAUsageErrorNamingTheVariable) {
  TempDir tmp;
  std::string file = tmp.write("a-file", "x");
  std::string program = source_path("examples/saxpy.strata");
  struct Bad {
    std::string setting, says;
  };
  const std::string bytes =
      "expected a whole number of bytes, optionally with K, M or G (1048576, 64K, 512M, 2G)";
  const Bad cases[] = {
      {"STRATA_MEMORY_LIMIT=lots", bytes},
      {"STRATA_MEMORY_LIMIT=1.5G", bytes},
      {"STRATA_MEMORY_LIMIT=-5", bytes},
      {"STRATA_MPI_MIN_BLOCK_BYTES=64KB", bytes},
      {"STRATA_CACHE=maybe", "unknown value (accepted: off, 0, on, 1)"},
      {"STRATA_CACHE_DIR=" + file, "exists and is not a directory"},
      {"STRATA_JIT_DUMP=" + file, "exists and is not a directory"},
      {"STRATA_COUNTEREXAMPLES=" + file, "exists and is not a directory"},
      {"STRATA_CACHE_MAX_MB=-1", "expected a non-negative whole number"},
      {"STRATA_MEMORY_CACHE_ENTRIES=ten", "expected a non-negative whole number"},
      {"STRATA_MEMORY_CACHE_MB=1.5", "expected a non-negative whole number"},
      {"STRATA_JIT_TIERS=fast", "unknown value (accepted: tiered, optimised, quick)"},
      {"STRATA_JIT_VECLIB=mkl", "unknown value (accepted: none, libmvec)"},
      {"STRATA_JIT_PIPELINE=O2", "unknown value (accepted: O3)"},
  };
  for (const Bad& b : cases) {
    CliResult r = run_cli_env(b.setting, "run " + program);
    EXPECT_EQ(r.exit_code, 2) << b.setting << "\n" << r.err;
    EXPECT_EQ(r.err, "strata: error: " + b.setting + ": " + b.says + "\n") << b.setting;
    EXPECT_EQ(r.out, "") << b.setting;
  }
  // Well-formed values run.
  for (const char* good :
       {"STRATA_MEMORY_LIMIT=2G", "STRATA_MEMORY_LIMIT=1048576", "STRATA_MPI_MIN_BLOCK_BYTES=0",
        "STRATA_CACHE=off", "STRATA_CACHE_MAX_MB=64"}) {
    CliResult r = run_cli_env(good, "run " + program);
    EXPECT_EQ(r.exit_code, 0) << good << "\n" << r.err;
  }
}

// The library reads each variable where it acts, through the same check:
// an allocation under a malformed memory limit is that usage error, not an
// unlimited run.
TEST(Environment, TheLibraryRefusesAMalformedMemoryLimit) {
  ::setenv("STRATA_MEMORY_LIMIT", "-5", 1);
  try {
    (void)Buffer::allocate(64, true);
    ADD_FAILURE() << "allocated under STRATA_MEMORY_LIMIT=-5";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(e.message().find("STRATA_MEMORY_LIMIT=-5: expected a whole number of bytes"),
              std::string::npos)
        << e.message();
  }
  ::unsetenv("STRATA_MEMORY_LIMIT");
  EXPECT_NO_THROW((void)Buffer::allocate(64, true));
}

} // namespace
} // namespace strata::test
