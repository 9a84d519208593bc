// What only the tbb engine has: fused, it may raise the later of two
// failures (the differential check accepts exactly that). Its agreement with
// the oracle and the hand-computed expectations every engine meets are
// tests/conformance_test.cpp.
#include <gtest/gtest.h>

#include "oracle/differential.h"
#include "oracle/registry.h"
#include "tbb/engine.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {

const Engine& tbb_engine() {
  static auto engine = make_tbb_engine();
  return *engine;
}

} // namespace
} // namespace strata::test

namespace strata::test {
namespace {

// A program failing in two places: fused, the slice's check runs in the
// kernel that materialises it, after the fold1 kernel, so fused tbb raises
// the later failure; unfused raises the oracle's. The differential check
// accepts exactly that (docs/testing.md), and still rejects a fused run
// whose unfused twin does not raise the oracle's error.
TEST(TbbEngine, FusedMayRaiseTheLaterOfTwoFailures) {
  Program p =
      parse_and_check("(program () (atuple"
                      "  (slice (generate (ix 1 0 1) (lambda ((i (ix 3))) 1i16)) (spec all 0 all))"
                      "  (fold1 (lambda ((a i32) (b i32)) (max a b))"
                      "         (generate (ix 1 3 0) (lambda ((i (ix 3))) 2i32)))))");
  Outcome oracle = run_engine(*find_engine("interp"), p, {}, CompileOptions{});
  Outcome fused = run_engine(tbb_engine(), p, {}, CompileOptions{true, true});
  Outcome unfused = run_engine(tbb_engine(), p, {}, CompileOptions{false, true});
  ASSERT_EQ(oracle.error, ErrorKind::Bounds) << oracle.message;
  EXPECT_EQ(unfused.error, ErrorKind::Bounds) << unfused.message;
  EXPECT_EQ(fused.error, ErrorKind::EmptyReduction) << fused.message;
  for (bool fusion : {true, false})
    EXPECT_TRUE(differential_check(p, {}, tbb_engine(), CompileOptions{fusion, true}).agree);
}

} // namespace
} // namespace strata::test
