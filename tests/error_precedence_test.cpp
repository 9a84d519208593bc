// Error precedence (issue 24; docs/language.md, Errors): when a program could
// fail in several places, every engine raises the interpreter's error. An
// operation-level scalar expression (a seed, a stencil's constant boundary,
// fill's value) is evaluated exactly when its operation's result is
// non-empty, and then before any element of it. The programs and their
// hand-written headlines are in error_precedence_cases.h; the cuda engine's
// host backend runs them in cuda_error_precedence_test.cpp.
#include <gtest/gtest.h>

#include <filesystem>

#include "oracle/graph_eval.h"
#include "oracle/bundle.h"
#include "oracle/differential.h"
#include "oracle/registry.h"
#include "tests/error_precedence_cases.h"

namespace strata {
namespace {

using precedence::Case;
using test::parse_and_check;

// The headline an engine raises on a case ("" when it succeeds).
std::string headline_on(const Engine& engine, const Program& p, const CompileOptions& o) {
  Outcome out = run_engine(engine, p, precedence::inputs(), o);
  return out.error ? out.headline : "";
}

// Every case on `engine`, fused and unfused, in the blocked order and in the
// small one (whose chunked folds and scans run every part of the trees):
// the hand-written headline, and agreement with the oracle.
void check_engine(const Engine& engine) {
  for (const Case& c : precedence::cases()) {
    Program p = parse_and_check(c.text);
    for (bool fusion : {true, false})
      for (const ReductionOrder& order : {ReductionOrder::blocked(), ReductionOrder::small()}) {
        CompileOptions o;
        o.fusion = fusion;
        o.order = order;
        std::string where =
            engine.name() + (fusion ? " fused, " : " unfused, ") + order.describe() + ": " + c.what;
        if (!fusion || !c.fused_may_differ) {
          EXPECT_EQ(headline_on(engine, p, o), c.headline) << where;
        }
        DiffReport r = differential_check(p, precedence::inputs(), engine, o);
        EXPECT_TRUE(r.agree) << where << ": " << r.disagreement;
      }
  }
}

TEST(ErrorPrecedence, TheInterpreterRaisesTheHandWrittenHeadlines) {
  for (const Case& c : precedence::cases()) {
    Program p = parse_and_check(c.text);
    EXPECT_EQ(headline_on(*find_engine("interp"), p, CompileOptions{}), c.headline) << c.what;
  }
}

TEST(ErrorPrecedence, TheGraphEngineFollowsTheInterpreter) {
  check_engine(*make_graph_engine());
}

TEST(ErrorPrecedence, EveryEngineFollowsTheInterpreter) {
  int engines = 0;
  for (const Engine* engine : all_engines()) {
    std::string why;
    if (engine->name() == "interp" || !engine->available(why)) continue;
    ++engines;
    check_engine(*engine);
  }
  if (engines == 0) GTEST_SKIP() << "no engine but the interpreter";
}

// Counterexamples kept under tests/regressions/ (oracle/bundle.h): each
// replays as recorded, and on every engine of this build, fused and unfused.
TEST(ErrorPrecedence, RegressionBundlesAgreeOnEveryEngine) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(STRATA_SOURCE_DIR) / "tests" / "regressions";
  int bundles = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (!is_bundle(entry.path())) continue;
    ++bundles;
    Bundle b = read_bundle(entry.path());
    std::string name = entry.path().filename().string();
    if (const Engine* recorded = find_engine(b.engine)) {
      std::string why;
      if (recorded->available(why)) {
        DiffReport r = replay_bundle(b);
        EXPECT_TRUE(r.agree) << name << ": " << r.disagreement;
      }
    }
    Program p = parse_and_check(b.program_text);
    for (const Engine* engine : all_engines()) {
      std::string why;
      if (!engine->available(why)) continue;
      for (bool fusion : {true, false}) {
        CompileOptions o = b.options();
        o.fusion = fusion;
        DiffReport r = differential_check(p, b.inputs, *engine, o);
        EXPECT_TRUE(r.agree) << name << " on " << engine->name() << ": " << r.disagreement;
      }
    }
  }
  EXPECT_GT(bundles, 0) << "no bundle under " << dir;
}

} // namespace
} // namespace strata
