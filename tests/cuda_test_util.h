// Shared by the cuda engine's tests: the example programs and generated
// cases, their kernel graphs (fused and unfused) and generated code, with a
// distinct symbol prefix each so that many programs batch into one compile.
#pragma once

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/check.h"
#include "core/engine.h"
#include "core/npy.h"
#include "core/parser.h"
#include "cuda/codegen.h"
#include "cuda/executor.h"
#include "cuda/host_backend.h"
#include "cuda/prelude.h"
#include "fusion/fuse.h"
#include "oracle/generator.h"

namespace strata::cudatest {

struct Case {
  std::string name;
  std::shared_ptr<Program> program;
  std::vector<Array> inputs;
};

inline std::vector<Case> example_cases() {
  namespace fs = std::filesystem;
  std::vector<Case> out;
  fs::path dir = fs::path(STRATA_SOURCE_DIR) / "examples";
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".strata") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    std::ifstream in(f);
    std::stringstream text;
    text << in.rdbuf();
    Case c;
    c.name = f.stem().string();
    c.program = std::make_shared<Program>(parse_program(text.str(), f.string()));
    check_program(*c.program);
    for (const Param& p : c.program->params)
      c.inputs.push_back(read_npy((dir / c.name / (p.name + ".npy")).string()));
    out.push_back(std::move(c));
  }
  return out;
}

inline std::vector<Case> generated_cases(int count, uint64_t seed0 = 1) {
  std::vector<Case> out;
  for (int i = 0; i < count; ++i) {
    GeneratedCase g = generate_case(seed0 + uint64_t(i), 30 + i % 50);
    Case c;
    c.name = "generated seed " + std::to_string(seed0 + uint64_t(i));
    c.program = std::make_shared<Program>(g.checked());
    c.inputs = g.inputs;
    out.push_back(std::move(c));
  }
  return out;
}

// One program compiled one way: its graph and generated code.
struct Unit {
  const Case* c = nullptr;
  bool fused = true;
  std::unique_ptr<KernelGraph> graph;
  cuda::Generated code;
};

inline std::vector<Unit> units(const std::vector<Case>& cases, const std::string& tag) {
  std::vector<Unit> out;
  for (const Case& c : cases)
    for (bool fused : {true, false}) {
      Unit u;
      u.c = &c;
      u.fused = fused;
      u.graph = std::make_unique<KernelGraph>(build_kernel_graph(*c.program, FusionOptions{fused}));
      u.code = cuda::generate(*u.graph, tag + std::to_string(out.size()));
      out.push_back(std::move(u));
    }
  return out;
}

// The prelude once, then the bodies of units [first, last).
inline std::string batch_source(const std::vector<Unit>& us, size_t first, size_t last) {
  std::string s(cuda::prelude());
  for (size_t i = first; i < last && i < us.size(); ++i)
    s += cuda::without_prelude(us[i].code);
  return s;
}

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

} // namespace strata::cudatest
