// The CPU the jit compiles for (jit/target_cpu.h): the host's, whose vector
// width follows its features; a CPU named by STRATA_JIT_CPU, with its
// default features or the ones given, whose kernels are compiled but never
// run (a named CPU is for measuring compile cost under valgrind,
// scripts/jit-compile-instructions); a name or feature LLVM does not know is
// a one-line usage error, and an engine without the jit never reads it.
#include <gtest/gtest.h>

#include "core/error.h"
#include "jit/backend.h"
#include "jit/target_cpu.h"
#include "tests/cli_util.h"

namespace strata::test {
namespace {

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(JitTargetCpu, TheHostsCpuAndItsVectorWidth) {
  if (std::getenv("STRATA_JIT_CPU")) GTEST_SKIP() << "STRATA_JIT_CPU is set";
  const jit::TargetCpu& cpu = jit::target_cpu();
  EXPECT_TRUE(cpu.host);
  EXPECT_FALSE(cpu.name.empty());
  EXPECT_EQ(jit::host_cpu_spec(), cpu.name + "," + cpu.features);
  bool avx512 = has("," + cpu.features + ",", ",+avx512f,");
  bool avx = has("," + cpu.features + ",", ",+avx,");
  EXPECT_EQ(cpu.vector_bits, avx512 ? 512 : avx ? 256 : 128) << cpu.features;
  // The target description (every cache key) names this CPU.
  EXPECT_TRUE(has(jit::target_description(), "cpu " + cpu.name + ";")) << jit::target_description();
}

TEST(JitTargetCpu, NamedCpusTakeTheirDefaultFeaturesOrTheOnesGiven) {
  EXPECT_EQ(jit::named_cpu("skylake-avx512").vector_bits, 512);
  EXPECT_EQ(jit::named_cpu("haswell").vector_bits, 256);
  EXPECT_EQ(jit::named_cpu("x86-64").vector_bits, 128);
  EXPECT_EQ(jit::named_cpu("haswell,-avx").vector_bits, 128);
  EXPECT_EQ(jit::named_cpu("x86-64,+avx512f").vector_bits, 512);
  jit::TargetCpu t = jit::named_cpu("haswell,+avx2,-fma");
  EXPECT_FALSE(t.host);
  EXPECT_EQ(t.name, "haswell");
  EXPECT_EQ(t.features, "+avx2,-fma");
  for (const char* bad : {"bogus", "haswell,+nonsense", "haswell,avx9"}) {
    try {
      jit::named_cpu(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage) << e.what();
      EXPECT_EQ(e.message().rfind(std::string("STRATA_JIT_CPU=") + bad + ": '", 0), 0u)
          << e.message();
      EXPECT_TRUE(has(e.message(), "LLVM does not know for x86_64")) << e.message();
    }
  }
}

CliResult run_with_cpu(const std::string& cpu, const std::string& args) {
  return run_cli_env("STRATA_JIT_CPU=" + cpu + " STRATA_CACHE=off", args);
}

TEST(JitTargetCpu, KernelsForANamedCpuAreNeverRun) {
  TempDir tmp;
  std::string program = tmp.write("p.strata", "(program () (generate (ix 4) (lambda (i) 1)))\n");
  CliResult named = run_with_cpu("x86-64", "run " + program + " --engine jit");
  EXPECT_EQ(named.exit_code, 2) << named.err;
  EXPECT_EQ(named.out, "");
  EXPECT_TRUE(has(named.err, "STRATA_JIT_CPU=x86-64: the jit compiles for that CPU, not this "
                             "machine's, and runs nothing (unset it to run programs)"))
      << named.err;
  CliResult bogus = run_with_cpu("bogus", "run " + program + " --engine jit");
  EXPECT_EQ(bogus.exit_code, 2) << bogus.err;
  EXPECT_TRUE(has(bogus.err, "STRATA_JIT_CPU=bogus: 'bogus' is a CPU LLVM does not know for "))
      << bogus.err;
  EXPECT_EQ(std::count(bogus.err.begin(), bogus.err.end(), '\n'), 1) << bogus.err;
  CliResult interp = run_with_cpu("bogus", "run " + program);
  EXPECT_EQ(interp.exit_code, 0) << interp.err;
}

} // namespace
} // namespace strata::test
