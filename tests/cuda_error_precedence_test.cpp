// Error precedence (issue 24) on the cuda engine without a GPU: the cases of
// error_precedence_cases.h, compiled for the host (cuda/host_backend.h) and
// run by the engine's own executor, fused and unfused, in the blocked and
// small orders, must raise the interpreter's hand-written headlines and agree
// with the oracle.
#include <gtest/gtest.h>

#include "cuda_test_util.h"
#include "oracle/differential.h"
#include "tests/error_precedence_cases.h"

namespace strata {
namespace {

TEST(CudaHostErrorPrecedence, EveryCaseRaisesTheInterpretersHeadline) {
  std::vector<cudatest::Case> programs;
  for (const precedence::Case& c : precedence::cases()) {
    cudatest::Case k;
    k.name = c.what;
    k.program = std::make_shared<Program>(test::parse_and_check(c.text));
    k.inputs = precedence::inputs();
    programs.push_back(std::move(k));
  }
  std::vector<cudatest::Unit> us = cudatest::units(programs, "p");
  cudatest::HostEngine engine(us,
                              cuda::HostModule::compile(cudatest::batch_source(us, 0, us.size())));
  for (const cudatest::Unit& u : us) {
    const precedence::Case& c = precedence::cases()[size_t(u.c - programs.data())];
    for (const ReductionOrder& order : {ReductionOrder::blocked(), ReductionOrder::small()}) {
      CompileOptions o;
      o.fusion = u.fused;
      o.order = order;
      std::string where =
          std::string(u.fused ? "fused, " : "unfused, ") + order.describe() + ": " + c.what;
      if (!u.fused || !c.fused_may_differ) {
        Outcome out = run_engine(engine, *u.c->program, u.c->inputs, o);
        EXPECT_EQ(out.error ? out.headline : "", c.headline) << where;
      }
      DiffReport r = differential_check(*u.c->program, u.c->inputs, engine, o);
      EXPECT_TRUE(r.agree) << where << ": " << r.disagreement;
    }
  }
}

} // namespace
} // namespace strata
