// Every registered engine against the oracle on generated cases, fused and
// unfused, run twice (determinism); fused against unfused. A disagreement is
// written as a counterexample bundle (oracle/bundle.h) to
// $STRATA_COUNTEREXAMPLES/<engine>[-unfused] (default ./counterexamples): the
// last one written is the shrunk case, since each accepted shrink step fails.
#include <cstdlib>

#include <gtest/gtest.h>

#include "core/printer.h"
#include "oracle/bundle.h"
#include "oracle/differential.h"
#include "oracle/generator_rc.h"
#include "oracle/registry.h"
#include "properties/property.h"

namespace strata {
namespace {

std::filesystem::path counterexample_dir(const Engine& e, bool fusion) {
  const char* env = std::getenv("STRATA_COUNTEREXAMPLES");
  std::filesystem::path root = env && *env ? env : "counterexamples";
  return root / (e.name() + (fusion ? "" : "-unfused"));
}

void save(const GeneratedCase& c, const Program& p, const Engine& e, bool fusion,
          const std::string& disagreement) {
  Bundle b;
  b.program_text = print_program(p);
  b.input_names = c.params;
  b.inputs = c.inputs;
  b.engine = e.name();
  b.fusion = fusion;
  b.seed = "RC_PARAMS=\"seed=" + std::to_string(rc::detail::configuration().testParams.seed) + "\"";
  b.size = c.size;
  b.disagreement = disagreement;
  auto dir = counterexample_dir(e, fusion);
  write_bundle(dir, b);
  RC_LOG() << "counterexample bundle: " << dir.string() << " (replay: strata check " << dir.string()
           << ")\n";
}

std::vector<const Engine*> available_engines() {
  std::vector<const Engine*> out;
  for (const Engine* e : all_engines()) {
    std::string why;
    if (e->available(why)) out.push_back(e);
  }
  return out;
}

TEST(Engines, EveryEngineEqualsTheOracleAndIsDeterministic) {
  prop::check(500, [](const GeneratedCase& c) {
    Program p = c.checked();
    for (const Engine* e : available_engines()) {
      for (bool fusion : {true, false}) {
        CompileOptions options;
        options.fusion = fusion;
        DiffReport r = differential_check(p, c.inputs, *e, options);
        for (const ResultTolerance& t : r.tolerance.results)
          RC_TAG(std::string(mode_name(t.mode)));
        RC_TAG(r.oracle.error ? "oracle error" : "oracle result");
        if (!r.agree) {
          save(c, p, *e, fusion, r.disagreement);
          RC_FAIL(r.disagreement);
        }
      }
    }
  });
}

TEST(Engines, FusedEqualsUnfused) {
  prop::check(300, [](const GeneratedCase& c) {
    Program p = c.checked();
    ProgramTolerance tol = derive_tolerance(p, c.inputs);
    for (const Engine* e : available_engines()) {
      CompileOptions fused, unfused;
      unfused.fusion = false;
      Outcome a = run_engine(*e, p, c.inputs, fused);
      Outcome b = run_engine(*e, p, c.inputs, unfused);
      // Fused runs may skip errors in work nobody reads (docs/testing.md):
      // then the unfused run must raise the oracle's error.
      if (!a.error && b.error) {
        Outcome oracle = run_engine(*find_engine("interp"), p, c.inputs, CompileOptions{});
        if (oracle.error == b.error) continue;
      }
      if (auto diff = compare_outcomes(a, b, tol)) {
        save(c, p, *e, false, e->name() + " unfused vs fused: " + *diff);
        RC_FAIL(*diff);
      }
    }
  });
}

} // namespace
} // namespace strata
