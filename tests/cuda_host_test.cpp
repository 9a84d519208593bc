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

// A test-only engine whose executables run precompiled host code.
class HostEngine final : public Engine {
public:
  HostEngine(const std::vector<Unit>& us, std::shared_ptr<cuda::HostModule> m) : module_(m) {
    for (const Unit& u : us)
      units_[{u.c->program.get(), u.fused}] = &u;
  }
  std::string name() const override { return "cuda-host"; }
  bool available(std::string&) const override { return true; }
  std::unique_ptr<Executable> compile(const Program& p, const CompileOptions& o) const override {
    return std::make_unique<Exe>(*units_.at({&p, o.fusion}), module_, o.order);
  }

private:
  struct Exe final : Executable {
    Exe(const Unit& u, std::shared_ptr<cuda::HostModule> m, const ReductionOrder& o)
        : unit(u), order(o), backend(m), pool(backend) {}
    std::vector<Array> run(const std::vector<Array>& inputs) override {
      return cuda::run_graph(*unit.graph, unit.code, backend, pool, inputs, order);
    }
    ReductionOrder reduction_order() const override { return order; }
    const Unit& unit;
    ReductionOrder order;
    cuda::HostBackend backend;
    cuda::Pool pool;
  };
  std::shared_ptr<cuda::HostModule> module_;
  std::map<std::pair<const Program*, bool>, const Unit*> units_;
};

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
