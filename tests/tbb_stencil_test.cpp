// Stencils on the tbb engine: batches are cut into interior runs (code
// without boundary handling) and border runs per row; every shape here puts
// runs of both kinds in the same batch, or makes the interior empty (rows
// narrower than the window), and the result must be the interpreter's bitwise.
#include <gtest/gtest.h>

#include "tbb/engine.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {

TEST(TbbStencil, InteriorAndBorderRunsEqualTheInterpreter) {
  auto engine = make_tbb_engine();
  struct Case {
    const char* shape;
    const char* window;
    int rank;
    const char* reads;
  };
  for (const Case& c : std::vector<Case>{
           {"(ix 1000)", "(5)", 1, "(- (at nb -2) (* 0.5f32 (at nb 1)))"},
           {"(ix 3)", "(7)", 1, "(+ (at nb -3) (at nb 3))"},
           {"(ix 5 7)", "(3 5)", 2, "(+ (at nb -1 2) (* (at nb 1 -2) 0.25f32))"},
           {"(ix 40 300)", "(3 5)", 2, "(- (at nb -1 -2) (at nb 1 2))"},
           {"(ix 300 3)", "(5 3)", 2, "(+ (at nb 2 -1) (at nb -2 1))"},
           {"(ix 4 6 70)", "(3 3 3)", 3, "(+ (at nb -1 1 -1) (* (at nb 1 -1 1) 2f32))"},
       }) {
    for (const char* boundary : {"clamp", "mirror", "wrap", "(constant -1f32)"}) {
      std::string text = std::string("(program () (stencil ") + c.window + " " + boundary +
                         " (lambda ((nb (window f32 " + std::to_string(c.rank) + "))) " + c.reads +
                         ") (generate " + c.shape + " (lambda ((i (ix " + std::to_string(c.rank) +
                         "))) (sin (cast f32 (to-index " + c.shape + " i)))))))";
      if (std::string(boundary) == "mirror" && std::string(c.shape) == "(ix 3)") continue;
      Program p = parse_and_check(text);
      Array oracle = interpret(p, {})[0];
      for (bool fused : {true, false}) {
        Array got = engine->compile(p, CompileOptions{fused, true})->run({})[0];
        EXPECT_TRUE(identical(got, oracle)) << (fused ? "fused: " : "unfused: ") << text;
      }
    }
  }
}

} // namespace
} // namespace strata::test
