// CompileOptions::target (core/engine.h): compiling for a device architecture
// without the device. The engines that compile for this machine only refuse a
// target with a usage error naming themselves, never ignore it; `strata
// compile --arch` reaches the engine that takes one through the registry.
#include <gtest/gtest.h>

#include <string>

#include "core/check.h"
#include "core/error.h"
#include "core/parser.h"
#include "oracle/registry.h"
#include "tests/cli_util.h"

namespace strata::test {
namespace {

Program sum_program() {
  Program p = parse_program(
      "(program ((x (array f32 1))) (fold (lambda ((a f32) (b f32)) (+ a b)) 0.0f32 x))", "sum");
  check_program(p);
  return p;
}

TEST(EngineTarget, EnginesForThisMachineRefuseATarget) {
  Program p = sum_program();
  int refused = 0;
  for (const Engine* e : all_engines()) {
    if (!e->target_help().empty()) continue;
    CompileOptions o;
    o.target = "sm_80";
    try {
      e->compile(p, o);
      ADD_FAILURE() << e->name() << " accepted a target";
    } catch (const Error& err) {
      EXPECT_EQ(err.kind(), ErrorKind::Usage) << e->name();
      EXPECT_NE(std::string(err.what()).find("engine `" + e->name() + "`"), std::string::npos)
          << err.what();
      EXPECT_NE(std::string(err.what()).find("sm_80"), std::string::npos) << err.what();
    }
    ++refused;
  }
  EXPECT_GE(refused, 1); // the interpreter at least
}

TEST(EngineTarget, ArchNeedsAnEngineWithTargets) {
  std::string file = source_path("examples/segmented_sum.strata");
  CliResult r = run_cli("compile " + file + " --engine interp --arch sm_80");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const Engine* with = nullptr;
  for (const Engine* e : all_engines())
    if (!e->target_help().empty()) with = e;
  if (with)
    EXPECT_NE(r.err.find("--arch needs the " + with->name() + " engine"), std::string::npos)
        << r.err;
  else
    EXPECT_NE(r.err.find("no engine of this build compiles for a device"), std::string::npos)
        << r.err;
}

} // namespace
} // namespace strata::test
