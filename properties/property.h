// Running RapidCheck properties as GoogleTest tests with a per-property
// number of cases, so the whole binary stays within the CI time budget (also
// under the sanitizers). RC_PARAMS="max_success=N" overrides every property's
// default; RC_PARAMS="seed=S" reproduces a run (see docs/testing.md).
#pragma once

#include <cstdlib>
#include <cstring>
#include <sstream>
#include <utility>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "tests/test_util.h"

namespace strata::prop {

// Runs `testable` (a callable whose arguments RapidCheck generates) for
// `cases` successful cases unless RC_PARAMS sets max_success.
template <class Testable> void check(int cases, Testable&& testable) {
  using namespace rc::detail;
  TestParams params = configuration().testParams;
  const char* env = std::getenv("RC_PARAMS");
  if (!env || !std::strstr(env, "max_success")) params.maxSuccess = cases;
  // Under the sanitizers a failure is reported as found, not shrunk: shrinking
  // compiles thousands of candidates, which there took longer than the test's
  // time limit (CI saw a timeout instead of the failure and its seed). The
  // seed reproduces it, shrunk, in the optimised build.
  if (test::kUnderSanitizers && (!env || !std::strstr(env, "noshrink")))
    params.disableShrinking = true;
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  TestResult result = checkTestable(std::forward<Testable>(testable), metadata, params);
  if (result.template is<SuccessResult>()) {
    if (!result.template get<SuccessResult>().distribution.empty()) {
      printResultMessage(result, std::cout);
      std::cout << "\n";
    }
  } else {
    std::ostringstream ss;
    printResultMessage(result, ss);
    FAIL() << ss.str() << "\n(rerun with RC_PARAMS=\"seed=" << params.seed << "\")";
  }
}

} // namespace strata::prop
