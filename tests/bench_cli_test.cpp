// `strata bench FILE`: every available engine timed beside the interpreter
// on the same inputs, checked against the oracle on its warm-up run; the
// JSON is Google Benchmark's (its compare.py reads two of them); the plot is
// an SVG with a bar per engine; bad input is a usage or input error.
#include <filesystem>

#include <gtest/gtest.h>

#include "tests/cli_util.h"

namespace strata::test {
namespace {
namespace fs = std::filesystem;

const char* kSums = ";; input xs: f64[n] in [-1, 1]\n"
                    ";; input n: 10..20000\n"
                    "(program ((xs (array f64 1))) (scanl1 + xs))\n";

TEST(CliBench, TimesEveryEngineBesideTheInterpreter) {
  TempDir dir;
  std::string file = dir.write("sums.strata", kSums);
  CliResult r = run_cli("bench " + file + " --size n=5000 --min-time 0.05 -q --plot " +
                        (dir / "p.svg").string());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("inputs n=5000 (generated, seed 1, typical values: uniform over each "
                       "range, no edge values)"),
            std::string::npos)
      << r.out;
  // Fused against unfused, one line per engine run both ways (none in the
  // interpreter-only build: the interpreter runs once).
  for (const char* engine : {"tbb", "jit"})
    if (r.out.find("\n" + std::string(engine) + " ") != std::string::npos) {
      size_t at = r.out.find("\n" + std::string(engine) + ": ");
      ASSERT_NE(at, std::string::npos) << r.out;
      std::string line = r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
      EXPECT_TRUE(line.find("than unfused") != std::string::npos ||
                  line.find("than fused") != std::string::npos ||
                  line.find("within the noise") != std::string::npos)
          << line;
    }
  CliResult edges =
      run_cli("bench " + file + " --size n=50 --min-time 0 -q --engine interp " + "--edge-values");
  EXPECT_EQ(edges.exit_code, 0) << edges.out << edges.err;
  EXPECT_NE(edges.out.find("1 in 8 an edge value"), std::string::npos) << edges.out;
  for (const char* column : {"engine", "fusion", "compile", "median", "speed-up", "throughput"})
    EXPECT_NE(r.out.find(column), std::string::npos) << column << "\n" << r.out;
  EXPECT_NE(r.out.find("\ninterp  -"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("oracle"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("NO:"), std::string::npos) << r.out;
  std::string svg = slurp(dir / "p.svg");
  EXPECT_EQ(svg.rfind("<svg", 0), 0u) << svg.substr(0, 80);
  EXPECT_NE(svg.find(">interp</text>"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

// `--min-time 0` stops after the first 3 runs: with thousands of short runs
// whose times do not overlap (one run beside a busy neighbour), the U test's
// p-value underflows to 0 and compare.py leaves its line out.
TEST(CliBench, GoogleBenchmarksCompareReadsTwoRuns) {
  const fs::path compare = "/usr/share/benchmark/compare.py";
  ASSERT_TRUE(fs::exists(compare))
      << "Google Benchmark's compare.py is missing: scripts/setup.sh installs libbenchmark-tools";
  TempDir dir;
  std::string file = dir.write("sums.strata", kSums);
  for (const char* name : {"a.json", "b.json"}) {
    CliResult r =
        run_cli("bench " + file + " --engine interp --size n=200 --min-time 0 -q --json " +
                (dir / name).string());
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  std::string cmd = "/usr/bin/python3 " + compare.string() + " --no-color benchmarks " +
                    (dir / "a.json").string() + " " + (dir / "b.json").string() + " >" +
                    (dir / "out").string() + " 2>&1";
  int status = std::system(cmd.c_str());
  std::string out = slurp(dir / "out");
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << out;
  std::string name = (dir / "sums.strata").string() + "/interp";
  EXPECT_NE(out.find(name + "_median"), std::string::npos) << out;
  EXPECT_NE(out.find(name + "_pvalue"), std::string::npos) << out; // the U test over the runs
  EXPECT_NE(out.find("Repetitions: 3 vs 3"), std::string::npos) << out;
  EXPECT_NE(out.find(name + "/compile"), std::string::npos) << out;
}

// A wrong engine is timed all the same, but the table says it is wrong and
// the exit code is 1: a fast wrong answer is not a result.
TEST(CliBench, AnEngineThatDisagreesWithTheOracleFailsTheBench) {
  TempDir dir;
  std::string file = dir.write("sums.strata", kSums);
  CliResult r = run_cli("bench " + file + " --engine faulty:scan_off_by_one --size n=100 " +
                        "--min-time 0.01 -q");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("NO: element ("), std::string::npos) << r.out;
}

TEST(CliBench, BadInputIsAnErrorNotACrash) {
  TempDir dir;
  std::string file = dir.write("sums.strata", kSums);
  EXPECT_EQ(run_cli("bench").exit_code, 2);
  EXPECT_EQ(run_cli("bench " + file + " --size m=3").exit_code, 2);
  EXPECT_EQ(run_cli("bench " + file + " --size n=-3").exit_code, 2);
  EXPECT_EQ(run_cli("bench " + file + " --engine no_such_engine").exit_code, 2);
  EXPECT_EQ(run_cli("bench " + file + " --min-time -1").exit_code, 2);
  CliResult r = run_cli("bench " + file + " --input 'xs: f64[n] in [2, 1]' --input 'n: 3'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("is empty"), std::string::npos) << r.err;
  EXPECT_EQ(run_cli("bench --help").exit_code, 0);
}

} // namespace
} // namespace strata::test
