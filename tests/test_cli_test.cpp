// `strata test FILE`: a user's program on generated inputs against the
// oracle. A correct engine passes; a planted off-by-one (a faulty engine of
// the fault catalogue) is found, shrunk to a few elements, saved as a bundle
// that `strata check DIR` replays; bad specs are one-line errors, exit 1.
#include <filesystem>

#include <gtest/gtest.h>

#include "core/npy.h"
#include "tests/cli_util.h"

namespace strata::test {
namespace {
namespace fs = std::filesystem;

const char* kPrefixSums = ";; Running sums of a vector.\n"
                          ";; input xs: f32[n] in [-1, 1]\n"
                          ";; input n: 1000..100000\n"
                          "(program ((xs (array f32 1))) (scanl1 + xs))\n";

TEST(CliTest, ACorrectEnginePassesEveryTrial) {
  TempDir dir;
  std::string file = dir.write("sums.strata", kPrefixSums);
  CliResult r =
      run_cli("test " + file + " --engine interp --count 4 --seed 5 --out " + (dir / "b").string());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("interp: 4 trials, 12 checks"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 disagreements"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 not compared"), std::string::npos) << r.out;
  // The specs it drew from, from the program's comments.
  EXPECT_NE(r.out.find(":2: input 'xs: f32[n] in [-1, 1]'"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir / "b"));
}

// A time budget for all engines (default 60 s): a count it cannot reach is
// cut short and says so, every engine runs at least one trial, and --count 0
// runs until the budget is spent.
TEST(CliTest, TheTimeLimitIsSharedAmongTheEnginesAndSaysWhenItEnded) {
  TempDir dir;
  std::string file = dir.write("sums.strata", kPrefixSums);
  CliResult r = run_cli("test " + file + " --engine interp --count 1000000 " +
                        "--time-limit 0.5 -q --out " + (dir / "b").string());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("1000000 trials per engine within 0.5 s in all (--time-limit)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("the time limit ended it"), std::string::npos) << r.out;
  CliResult until = run_cli("test " + file + " --engine interp --count 0 --time-limit 0.2 -q");
  EXPECT_EQ(until.exit_code, 0) << until.out << until.err;
  EXPECT_NE(until.out.find("interp: "), std::string::npos) << until.out;
  EXPECT_EQ(run_cli("test " + file + " --count 0 --time-limit 0").exit_code, 2);
  EXPECT_EQ(run_cli("test " + file + " --time-limit=-1").exit_code, 2);
  CliResult header = run_cli("test " + file + " --engine interp --count 1 -q");
  EXPECT_NE(header.out.find("1 trials per engine within 60 s in all"), std::string::npos)
      << header.out;
}

TEST(CliTest, APlantedOffByOneIsFoundShrunkAndReplayed) {
  TempDir dir;
  std::string file = dir.write("sums.strata", kPrefixSums);
  CliResult r = run_cli("test " + file + " --engine faulty:scan_off_by_one --count 3 --quiet " +
                        "--out " + (dir / "b").string());
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("faulty:scan_off_by_one: trial 0 (n=1000, fused) disagrees"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("replay: strata check"), std::string::npos) << r.out;
  std::vector<fs::path> bundles;
  for (const auto& e : fs::directory_iterator(dir / "b"))
    bundles.push_back(e.path());
  ASSERT_EQ(bundles.size(), 1u);
  // Shrunk from 1000 elements to at most a few.
  Array xs = read_npy((bundles[0] / "inputs" / "xs.npy").string());
  EXPECT_GE(xs.size(), 1);
  EXPECT_LE(xs.size(), 3) << r.out;
  // The bundle keeps the user's text, comments included, and replays.
  EXPECT_NE(slurp(bundles[0] / "program.strata").find(";; Running sums"), std::string::npos);
  CliResult replay = run_cli("check " + bundles[0].string());
  EXPECT_EQ(replay.exit_code, 1) << replay.out << replay.err;
  EXPECT_NE(replay.out.find("faulty:scan_off_by_one"), std::string::npos) << replay.out;
}

TEST(CliTest, DeterministicForASeed) {
  TempDir dir;
  std::string file = dir.write("sums.strata", kPrefixSums);
  std::string args =
      "test " + file + " --engine faulty:scan_off_by_one --count 3 --quiet --seed 9 ";
  CliResult a = run_cli(args + "--out " + (dir / "a").string());
  CliResult b = run_cli(args + "--out " + (dir / "b").string());
  ASSERT_EQ(a.exit_code, 1);
  auto only = [](const fs::path& d) { return fs::directory_iterator(d)->path(); };
  EXPECT_EQ(slurp(only(dir / "a") / "inputs" / "xs.npy"),
            slurp(only(dir / "b") / "inputs" / "xs.npy"));
}

// The examples that carry `;; input` specs agree with the oracle on every
// available engine on inputs drawn from them (their smallest and largest
// sizes among them).
TEST(CliTest, ExamplesWithSpecsAgreeOnGeneratedInputs) {
  int tested = 0;
  for (const auto& e : fs::directory_iterator(fs::path(STRATA_SOURCE_DIR) / "examples")) {
    if (e.path().extension() != ".strata") continue;
    if (slurp(e.path()).find(";; input ") == std::string::npos) continue;
    TempDir dir;
    CliResult r =
        run_cli("test " + e.path().string() + " --count 3 -q --out " + (dir / "b").string());
    EXPECT_EQ(r.exit_code, 0) << e.path() << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("0 disagreements"), std::string::npos) << r.out;
    ++tested;
  }
  EXPECT_GE(tested, 8);
}

TEST(CliTest, BadSpecsAreOneLineInputErrors) {
  TempDir dir;
  std::string file =
      dir.write("v.strata", "(program ((xs (array f32 1))) (map (lambda (x) x) xs))");
  auto error = [&](const std::string& specs) {
    CliResult r = run_cli("test " + file + " --engine interp " + specs);
    EXPECT_EQ(r.exit_code, 1) << specs << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    return r.err;
  };
  EXPECT_NE(error("--input 'xs: f32[n] in [1, 0]' --input 'n: 4'").find("is empty"),
            std::string::npos);
  EXPECT_NE(error("--input 'ys: f32[4]'").find("no parameter `ys`"), std::string::npos);
  EXPECT_NE(error("--input 'xs: i32[4]'").find("(array f32 1)"), std::string::npos);
  EXPECT_NE(error("").find("has no input spec"), std::string::npos);
  EXPECT_NE(error("--input 'xs: f32[n]' --input 'n: 1..1000000000000000'").find("memory limit"),
            std::string::npos);
  EXPECT_EQ(run_cli("test").exit_code, 2);
  EXPECT_EQ(run_cli("test " + file + " --engine no_such_engine --input 'xs: f32[2]'").exit_code, 2);
  EXPECT_EQ(run_cli("test --help").exit_code, 0);
}

} // namespace
} // namespace strata::test
