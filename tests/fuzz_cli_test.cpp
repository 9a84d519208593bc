// `strata fuzz` and the table of `strata check`: a clean campaign exits 0, a
// campaign against a faulty engine exits 1 and leaves a shrunk bundle that
// `strata check DIR` replays, bad options are usage errors.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "tests/cli_util.h"

namespace strata::test {
namespace {
namespace fs = std::filesystem;

TEST(CliFuzz, ACleanCampaignExitsZero) {
  TempDir dir;
  CliResult r = run_cli("fuzz --engine interp --count 40 --seed 3 --out " + (dir / "b").string());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("interp: 40 programs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 disagreement(s)"), std::string::npos) << r.out;
  // Every output element of every variant compared bitwise; none left out.
  EXPECT_NE(r.out.find(" bitwise, 0 under a bound, 0 not compared"), std::string::npos) << r.out;
  // Not a terminal: the progress line is a plain line on stderr.
  EXPECT_NE(r.err.find("fuzz interp: 40 programs"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "b"));
}

// A campaign against a seeded fault (with `options`), its bundles in dir/b.
std::vector<fs::path> catch_the_fault(const TempDir& dir, const std::string& options,
                                      CliResult& r) {
  r = run_cli("fuzz --engine faulty:vector_tail_dropped --count 100 --seed 1 --quiet "
              "--shrink-limit 2" +
              options + " --out " + (dir / "b").string());
  std::vector<fs::path> bundles;
  if (fs::exists(dir / "b"))
    for (const auto& e : fs::directory_iterator(dir / "b"))
      bundles.push_back(e.path());
  return bundles;
}

TEST(CliFuzz, AFaultIsCaughtShrunkSavedAndReplayed) {
  TempDir dir;
  CliResult r;
  std::vector<fs::path> bundles = catch_the_fault(dir, "", r);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("replay: strata check"), std::string::npos) << r.out;
  ASSERT_FALSE(bundles.empty());
  EXPECT_TRUE(fs::exists(bundles[0] / "case.json"));
  EXPECT_NE(slurp(bundles[0] / "case.json").find("\"math\": \"exact\""), std::string::npos);
  CliResult replay = run_cli("check " + bundles[0].string());
  EXPECT_EQ(replay.exit_code, 1) << replay.out << replay.err;
  EXPECT_NE(replay.out.find("faulty:vector_tail_dropped"), std::string::npos) << replay.out;
  EXPECT_NE(replay.out.find("agrees"), std::string::npos) << replay.out; // the table
}

// --math goes into the bundle (case.json "math"), and its replay compiles so.
TEST(CliFuzz, TheMathModeIsRecordedInTheBundle) {
  TempDir dir;
  CliResult r;
  std::vector<fs::path> bundles = catch_the_fault(dir, " --math fast", r);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  ASSERT_FALSE(bundles.empty());
  std::string json = slurp(bundles[0] / "case.json");
  EXPECT_NE(json.find("\"math\": \"fast\""), std::string::npos) << json;
  EXPECT_EQ(run_cli("check " + bundles[0].string()).exit_code, 1);
  // A mode that is not one names the file.
  std::string bad = json;
  bad.replace(bad.find("\"fast\""), 6, "\"quick\"");
  std::ofstream(bundles[0] / "case.json", std::ios::trunc) << bad;
  CliResult replay = run_cli("check " + bundles[0].string());
  EXPECT_NE(replay.exit_code, 0);
  EXPECT_NE(replay.err.find("case.json: math: `quick` is not a mode (exact, fast)"),
            std::string::npos)
      << replay.out << replay.err;
  EXPECT_EQ(run_cli("fuzz --math quick").exit_code, 2);
}

TEST(CliFuzz, CtrlCPrintsTheFiguresSoFar) {
  TempDir dir;
  // SIGINT after two seconds of an unbounded campaign.
  std::string cmd = "timeout --preserve-status -s INT 2 " + std::string(STRATA_BINARY) +
                    " fuzz --engine interp --count 0 --quiet --out " + (dir / "b").string() + " >" +
                    (dir / "out").string() + " 2>&1";
  int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  std::string out = slurp(dir / "out");
  EXPECT_NE(out.find("interp: "), std::string::npos) << out;
  EXPECT_NE(out.find("interrupted: the figures above are the campaign so far"), std::string::npos)
      << out;
}

TEST(CliFuzz, BadOptionsAreUsageErrors) {
  EXPECT_EQ(run_cli("fuzz --engine no_such_engine").exit_code, 2);
  EXPECT_EQ(run_cli("fuzz --count -3").exit_code, 2);
  EXPECT_EQ(run_cli("fuzz stray").exit_code, 2);
  EXPECT_EQ(run_cli("fuzz --help").exit_code, 0);
}

TEST(CliCheckTable, OneRowPerProgramEngineAndFusion) {
  CliResult r = run_cli("check " + source_path("examples/dotp.strata"));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("program"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("engine  fusion  agrees"), std::string::npos) << r.out;
  // Compile and run timed apart (the interpreter compiles nothing: well under its run).
  EXPECT_NE(r.out.find("compile"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("     run\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("interp  -       yes (expected)"), std::string::npos) << r.out;
}

} // namespace
} // namespace strata::test
