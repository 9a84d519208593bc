// `strata check` compares every engine with the oracle replaying the order
// the engine declares (docs/testing.md): a long float sum, where the
// engines' blocked tree and the canonical left-to-right order round
// differently, passes on every engine (the false alarm of issue 16), and the
// output says how the elements were compared.
#include <gtest/gtest.h>

#include <random>

#include "core/npy.h"
#include "tests/cli_util.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {

// DIR/NAME.strata with its inputs in DIR/NAME/.
std::string write_program(const TempDir& dir, const std::string& name, const std::string& text,
                          const std::vector<std::pair<std::string, Array>>& inputs) {
  std::filesystem::create_directories(dir / name);
  for (const auto& [param, a] : inputs)
    write_npy((dir / name / (param + ".npy")).string(), a);
  return dir.write(name + ".strata", text);
}

std::vector<float> random_floats(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v)
    x = u(gen);
  return v;
}

TEST(CheckOrder, AMillionTermFloatSumPassesOnEveryEngine) {
  TempDir dir;
  std::string file = write_program(
      dir, "sum",
      "(program ((xs (array f32 1))) (fold (lambda ((a f32) (b f32)) (+ a b)) 0f32 xs))",
      {{"xs", array_of<float>(random_floats(1000000, 7))}});
  CliResult r = run_cli("check " + file);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("0 failure(s)"), std::string::npos) << r.out;
  // Engines say how many elements were compared bitwise (1 here: rank 0).
  if (r.out.find("tbb vs interp") != std::string::npos) {
    EXPECT_NE(r.out.find("1 elements: 1 bitwise"), std::string::npos) << r.out;
  }
}

TEST(CheckOrder, TheCanonicalAndTheBlockedOrderRoundDifferently) {
  // The reason the oracle must replay the engine's order: on this sum the
  // two orders give different bits, so a check against the canonical order
  // would fail a correct engine (and a check under a tolerance would hide
  // real faults).
  std::vector<float> xs = random_floats(1000000, 7);
  Program p = parse_and_check(
      "(program ((xs (array f32 1))) (fold (lambda ((a f32) (b f32)) (+ a b)) 0f32 xs))");
  InterpreterOptions canonical, blocked;
  blocked.order = ReductionOrder::blocked();
  float a = values_of<float>(interpret(p, {array_of<float>(xs)}, canonical)[0])[0];
  float b = values_of<float>(interpret(p, {array_of<float>(xs)}, blocked)[0])[0];
  EXPECT_NE(a, b);
  double exact = 0;
  for (float x : xs)
    exact += x;
  // The blocked tree is the more accurate one.
  EXPECT_LT(std::abs(b - exact), std::abs(a - exact));
}

} // namespace
} // namespace strata::test
