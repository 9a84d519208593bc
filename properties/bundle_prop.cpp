// Counterexample bundles: written and read back unchanged, and replayed by
// `strata check DIR`.
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/printer.h"
#include "oracle/bundle.h"
#include "oracle/generator_rc.h"
#include "properties/property.h"

namespace strata {
namespace {
namespace fs = std::filesystem;

fs::path temp_dir(const std::string& name) {
  return fs::temp_directory_path() /
         ("strata-bundle-" + name + "-" +
          std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
}

Bundle bundle_of(const GeneratedCase& c) {
  Bundle b;
  b.program_text = print_program(c.parse());
  b.input_names = c.params;
  b.inputs = c.inputs;
  b.engine = "interp";
  b.fusion = false;
  b.seed = "seed \"7\"\n\ttab";
  b.size = c.size;
  b.disagreement = "interp vs interp: element (0): expected 1, found 2";
  return b;
}

TEST(Bundle, WriteReadRoundTrip) {
  fs::path dir = temp_dir("rt");
  prop::check(50, [&](const GeneratedCase& c) {
    Bundle b = bundle_of(c);
    write_bundle(dir, b);
    RC_ASSERT(is_bundle(dir));
    Bundle r = read_bundle(dir);
    RC_ASSERT(r.program_text == b.program_text);
    RC_ASSERT(r.input_names == b.input_names);
    RC_ASSERT(r.engine == b.engine && r.fusion == b.fusion && r.checked == b.checked);
    RC_ASSERT(r.seed == b.seed && r.size == b.size && r.disagreement == b.disagreement);
    RC_ASSERT(r.inputs.size() == b.inputs.size());
    for (size_t i = 0; i < b.inputs.size(); ++i)
      RC_ASSERT(identical(r.inputs[i], b.inputs[i]));
    RC_ASSERT(replay_bundle(r).agree); // the interpreter agrees with itself
  });
  fs::remove_all(dir);
}

TEST(Bundle, StrataCheckReplaysABundle) {
  fs::path dir = temp_dir("cli");
  GeneratedCase c = generate_case(uint64_t(12), 60);
  write_bundle(dir, bundle_of(c));
  std::string cmd = std::string(STRATA_BINARY) + " check " + dir.string() + " > " +
                    (dir / "out.txt").string() + " 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  std::ifstream in(dir / "out.txt");
  std::string out((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(out.find("bundle"), std::string::npos) << out;
  EXPECT_NE(out.find("agree"), std::string::npos) << out;

  // A corrupt input is a clear error (exit 1), not a crash.
  if (!c.params.empty()) {
    std::ofstream((dir / "inputs" / (c.params[0] + ".npy")).string()) << "not npy";
    EXPECT_EQ(WEXITSTATUS(std::system(cmd.c_str())), 1);
  }
  fs::remove_all(dir);
}

} // namespace
} // namespace strata

namespace strata {
namespace {

// A bundle whose disagreement names an element holds the oracle's explanation of it.
TEST(Bundle, HoldsTheOraclesExplanationOfTheDifferingElement) {
  Bundle b;
  b.program_text = "(program ((xs (array i64 1)))\n  (map (lambda ((x i64)) (* x 10)) xs))\n";
  b.input_names = {"xs"};
  Array xs = Array::allocate(Type::scalar(ScalarKind::I64), {3});
  for (int64_t i = 0; i < 3; ++i)
    xs.write(0, i, Scalar::make<int64_t>(i + 1));
  b.inputs = {xs};
  b.engine = "tbb";
  b.disagreement = "tbb vs interp: element (2): expected 30, found 31";
  fs::path dir = fs::temp_directory_path() / "strata-bundle-explained";
  write_bundle(dir, b);
  std::ifstream in(dir / "explanation.txt");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("element (2) = 30"), std::string::npos) << text;
  EXPECT_NE(text.find("(* x 10) = 30"), std::string::npos) << text;
  // No element named: no explanation file.
  b.disagreement = "tbb vs interp: shape differs: expected (3), found (2)";
  write_bundle(dir, b);
  EXPECT_FALSE(fs::exists(dir / "explanation.txt"));
  fs::remove_all(dir);
}

} // namespace
} // namespace strata
