// Every registered engine (oracle/registry.h), fused and unfused, as the
// parameter of a GoogleTest suite: what tests/conformance_test.cpp and
// tests/legal_orders_test.cpp run their case tables on. An engine this
// machine cannot run is skipped with its reason.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include "oracle/differential.h"
#include "oracle/registry.h"
#include "tests/test_util.h"

namespace strata::test {

struct Target {
  std::string engine;
  bool fused = true;
};

// How GoogleTest prints a parameter (test names and ctest's listing).
inline void PrintTo(const Target& t, std::ostream* os) {
  *os << t.engine << (t.fused ? " fused" : " unfused");
}

inline std::vector<Target> targets(bool with_interpreter) {
  std::vector<Target> out;
  for (const Engine* e : all_engines()) {
    if (e->name() == "interp") {
      if (with_interpreter) out.push_back({e->name(), true}); // it has no fusion
      continue;
    }
    for (bool fused : {true, false})
      out.push_back({e->name(), fused});
  }
  // The distributed engine at 2 and 3 ranks (threads of this process, every
  // array in blocks: docs/mpi.md); `mpi` above is this process alone.
  for (const char* name : {"mpi:2", "mpi:3"})
    if (find_engine(name))
      for (bool fused : {true, false})
        out.push_back({name, fused});
  return out;
}

inline std::string target_name(const ::testing::TestParamInfo<Target>& info) {
  if (info.param.engine == "interp") return info.param.engine;
  std::string name = info.param.engine;
  std::replace(name.begin(), name.end(), ':', '_'); // mpi:2 -> mpi_2
  return name + (info.param.fused ? "_fused" : "_unfused");
}

class EngineSuite : public ::testing::TestWithParam<Target> {
protected:
  void SetUp() override {
    engine_ = find_engine(GetParam().engine);
    ASSERT_NE(engine_, nullptr);
    std::string why;
    if (!engine_->available(why)) GTEST_SKIP() << GetParam().engine << ": " << why;
  }

  // The engines' default order in the optimised build; under the sanitizers
  // the same order scaled down (test::boundary_order), so that the rows of
  // kLongRow below cross the same chunk and lane boundaries.
  CompileOptions options() const {
    CompileOptions o;
    o.fusion = GetParam().fused;
    o.order = boundary_order();
    return o;
  }

  std::vector<Array> run(const Program& p, const std::vector<Array>& inputs) const {
    return engine_->compile(p, options())->run(inputs);
  }

  // The differential check, comparing every element (none left out, no run
  // out of memory).
  void expect_agrees(const Program& p, const std::vector<Array>& inputs,
                     const std::string& what) const {
    DiffReport r = differential_check(p, inputs, *engine_, options());
    EXPECT_TRUE(r.agree) << what << ": " << r.disagreement;
    EXPECT_EQ(r.counts.not_compared, 0) << what;
    EXPECT_EQ(r.counts.checks_out_of_memory, 0) << what;
  }

  const Engine* engine_ = nullptr;
};

} // namespace strata::test
