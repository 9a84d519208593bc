// The cuda engine's generated code and executor checked against the oracle
// without a GPU: the generated translation units are compiled for the host
// (cuda/host_backend.h: one compile for a batch of programs) and run by the
// engine's own executor, work item by work item; results must equal the
// interpreter's under the tolerance policy, and errors must be the same kind.
#include <gtest/gtest.h>

#include <map>

#include "cuda/host_backend.h"
#include "cuda_test_util.h"
#include "oracle/differential.h"

namespace strata {
namespace {
using namespace cudatest;

#if defined(__SANITIZE_ADDRESS__)
constexpr int kGenerated = 30;
#else
constexpr int kGenerated = 150;
#endif

void check_all(const std::vector<Case>& cases, const std::string& tag) {
  std::vector<Unit> us = units(cases, tag);
  auto module = cuda::HostModule::compile(batch_source(us, 0, us.size()));
  HostEngine engine(us, module);
  int errors = 0;
  for (const Unit& u : us) {
    CompileOptions o;
    o.fusion = u.fused;
    DiffReport r = differential_check(*u.c->program, u.c->inputs, engine, o);
    if (r.oracle.error) ++errors;
    EXPECT_TRUE(r.agree) << u.c->name << (u.fused ? " fused" : " unfused") << ": "
                         << r.disagreement;
  }
  ::testing::Test::RecordProperty("oracle_errors", errors);
}

TEST(CudaHost, ExamplesEqualTheOracle) {
  check_all(example_cases(), "e");
}

TEST(CudaHost, GeneratedProgramsEqualTheOracle) {
  check_all(generated_cases(kGenerated, 1000), "g");
}

} // namespace
} // namespace strata
