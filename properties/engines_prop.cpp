// Every registered engine against the oracle on generated cases, fused and
// unfused, run twice (determinism); fused against unfused. A disagreement is
// written as a counterexample bundle (oracle/bundle.h) to
// $STRATA_COUNTEREXAMPLES/<engine>[-unfused] (default ./counterexamples): the
// last one written is the shrunk case, since each accepted shrink step fails.
#include <cstdlib>

#include <gtest/gtest.h>

#include <algorithm>

#include "core/environment.h"
#include "core/printer.h"
#include "oracle/bundle.h"
#include "oracle/differential.h"
#include "oracle/generator_rc.h"
#include "oracle/registry.h"
#include "properties/property.h"
#include "tests/test_util.h"

namespace strata {
namespace {

std::filesystem::path counterexample_dir(const Engine& e, bool fusion) {
  std::filesystem::path root =
      environment_dir("STRATA_COUNTEREXAMPLES").value_or("counterexamples");
  return root / (e.name() + (fusion ? "" : "-unfused"));
}

void save(const GeneratedCase& c, const Program& p, const Engine& e, const CompileOptions& options,
          const std::string& disagreement) {
  bool fusion = options.fusion;
  Bundle b;
  b.program_text = print_program(p);
  b.input_names = c.params;
  b.inputs = c.inputs;
  b.engine = e.name();
  b.fusion = fusion;
  b.order = options.order;
  b.seed = "RC_PARAMS=\"seed=" + std::to_string(rc::detail::configuration().testParams.seed) + "\"";
  b.size = c.size;
  b.disagreement = disagreement;
  auto dir = counterexample_dir(e, fusion);
  write_bundle(dir, b);
  RC_LOG() << "counterexample bundle: " << dir.string() << " (replay: strata check " << dir.string()
           << ")\n";
}

// One test per registered engine, so each has its own ctest entry and time
// budget. Engines that compile native code per kernel (tens of milliseconds
// per kernel at O3) run fewer cases than the interpreter and tbb, and half as
// many again under the sanitizers (whose Debug engines run them several times
// slower), so that the suite stays within CI's budget there too.
std::vector<std::string> engine_names_for_tests() {
  std::vector<std::string> names;
  for (const Engine* e : all_engines())
    names.push_back(e->name());
  // The distributed engine at 2 and 3 ranks (threads of this process, every
  // array in blocks: docs/mpi.md); `mpi` above is this process alone.
  for (const char* name : {"mpi:2", "mpi:3"})
    if (find_engine(name)) names.push_back(name);
  return names;
}

int cases_for(const std::string& engine, int base) {
  if (engine == "interp" || engine == "tbb") return base;
  return test::kUnderSanitizers ? base / 4 : base / 2;
}

class PerEngine : public ::testing::TestWithParam<std::string> {
protected:
  // The engine under test, or nullptr after GTEST_SKIP when it cannot run here.
  const Engine* engine() {
    const Engine* e = find_engine(GetParam());
    std::string why;
    if (!e->available(why)) {
      skipped_ = why;
      return nullptr;
    }
    return e;
  }
  std::string skipped_;
};

// The ways each case is compiled: fused and unfused in the engines' blocked
// order, and fused in the small order, whose chunks and lanes start at three
// elements, so that generated rows of a few elements exercise every part of
// the declared tree (core/reduction_order.h).
std::vector<CompileOptions> compile_variants() {
  CompileOptions fused, unfused, small;
  unfused.fusion = false;
  small.order = ReductionOrder::small();
  return {fused, unfused, small};
}

TEST_P(PerEngine, EqualsTheOracleAndIsDeterministic) {
  const Engine* e = engine();
  if (!e) GTEST_SKIP() << GetParam() << ": " << skipped_;
  prop::check(cases_for(e->name(), 500), [e](const GeneratedCase& c) {
    Program p = c.checked();
    for (const CompileOptions& options : compile_variants()) {
      DiffReport r = differential_check(p, c.inputs, *e, options);
      RC_TAG(r.oracle.error ? "oracle error" : "oracle result");
      if (!r.agree) {
        save(c, p, *e, options, r.disagreement);
        RC_FAIL(r.disagreement);
      }
      // Every element is compared bitwise: nothing is left uncompared.
      RC_ASSERT(r.counts.not_compared == 0);
    }
  });
}

TEST_P(PerEngine, FusedEqualsUnfused) {
  const Engine* e = engine();
  if (!e) GTEST_SKIP() << GetParam() << ": " << skipped_;
  prop::check(cases_for(e->name(), 300), [e](const GeneratedCase& c) {
    Program p = c.checked();
    for (ReductionOrder order : {ReductionOrder::blocked(), ReductionOrder::small()}) {
      CompileOptions fused, unfused;
      fused.order = unfused.order = order;
      unfused.fusion = false;
      Outcome a = run_engine(*e, p, c.inputs, fused);
      Outcome b = run_engine(*e, p, c.inputs, unfused);
      // Fused runs may skip errors in work nobody reads, or raise a later of
      // two failures first (docs/testing.md): then the unfused run must raise
      // the oracle's error.
      if (b.error && (a.error != b.error || a.headline != b.headline)) {
        Outcome oracle = run_oracle(p, c.inputs, b.order);
        if (oracle.error == b.error && oracle.headline == b.headline) continue;
      }
      if (auto diff = compare_outcomes(b, a)) {
        save(c, p, *e, fused, e->name() + " fused vs unfused (" + order.describe() + "): " + *diff);
        RC_FAIL(*diff);
      }
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Engines, PerEngine, ::testing::ValuesIn(engine_names_for_tests()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), ':', '_'); // mpi_2
                           return name;
                         });

} // namespace
} // namespace strata
