// Golden tests: every program in examples/ run through the command line gives
// the expected output computed independently with NumPy (examples/make_data.py).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "core/npy.h"
#include "oracle/compare.h"
#include "tests/cli_util.h"

namespace strata::test {
namespace {
namespace fs = std::filesystem;

class Example : public ::testing::TestWithParam<fs::path> {};

TEST_P(Example, MatchesExpectedOutput) {
  fs::path program = GetParam();
  fs::path data = fs::path(program).replace_extension("");
  TempDir dir;
  std::string out = (dir / "out.npy").string();
  CliResult r = run_cli("run " + program.string() + " -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;

  std::vector<std::pair<fs::path, fs::path>> pairs; // expected, actual
  if (fs::exists(data / "expected.npy")) {
    pairs.emplace_back(data / "expected.npy", out);
  } else {
    for (int i = 0; fs::exists(data / ("expected." + std::to_string(i) + ".npy")); ++i)
      pairs.emplace_back(data / ("expected." + std::to_string(i) + ".npy"),
                         dir / ("out." + std::to_string(i) + ".npy"));
  }
  ASSERT_FALSE(pairs.empty()) << "no expected output in " << data;
  for (const auto& [expected, actual] : pairs) {
    auto diff = compare_arrays(read_npy(expected.string()), read_npy(actual.string()));
    EXPECT_FALSE(diff) << program.filename() << ": " << *diff;
  }
}

INSTANTIATE_TEST_SUITE_P(Golden, Example, ::testing::ValuesIn(example_programs()),
                         [](const auto& info) { return info.param.stem().string(); });

TEST(ExamplesCheck, StrataCheckPassesOverTheExamplesDirectory) {
  CliResult r = run_cli("check " + source_path("examples"));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find(" 0 failure(s)"), std::string::npos) << r.out;
}

} // namespace
} // namespace strata::test
