// The seeded faults of the test-only faulty engine (oracle/faults/): each one
// really changes the result of a hand-written program chosen for it, leaves
// programs without its construct alone, and is reachable only by name.
#include <set>

#include <gtest/gtest.h>

#include "core/check.h"
#include "core/parser.h"
#include "oracle/differential.h"
#include "oracle/faults/faulty_engine.h"
#include "oracle/registry.h"

namespace strata {
namespace {

using faults::Fault;

Program checked(const std::string& text) {
  Program p = parse_program(text, "example.strata");
  check_program(p);
  return p;
}

TEST(Faults, AtLeastTwentyDistinctNamedDescribed) {
  std::set<std::string> names;
  for (const Fault& f : faults::all_faults()) {
    EXPECT_TRUE(names.insert(f.name).second) << f.name;
    EXPECT_FALSE(f.description.empty()) << f.name;
    EXPECT_TRUE(f.exp || f.acc || f.results || f.order || f.error) << f.name;
  }
  EXPECT_GE(names.size(), 20u);
}

TEST(Faults, ReachableByNameButNotRegistered) {
  for (const Fault& f : faults::all_faults()) {
    const Engine* e = faults::find_faulty_engine("faulty:" + f.name);
    ASSERT_NE(e, nullptr) << f.name;
    EXPECT_EQ(e->name(), "faulty:" + f.name);
    EXPECT_EQ(find_engine(e->name()), nullptr);
    EXPECT_EQ(faults::find_any_engine(e->name()), e);
  }
  EXPECT_EQ(faults::find_faulty_engine("faulty:no_such_fault"), nullptr);
  EXPECT_EQ(faults::find_any_engine("interp"), find_engine("interp"));
}

// Every fault changes the result of its example (fused; unfused too unless
// it is a fusion bug), and the oracle's result is the pinned one.
TEST(Faults, EachFaultChangesItsExample) {
  for (const Fault& f : faults::all_faults()) {
    SCOPED_TRACE(f.name);
    Program p = checked(f.example);
    const Engine& e = *faults::find_faulty_engine("faulty:" + f.name);
    for (bool fusion : {true, false}) {
      CompileOptions options;
      options.fusion = fusion;
      options.order = f.example_order;
      DiffReport r = differential_check(p, {}, e, options);
      // A fault of error messages needs an example that raises one.
      if (f.error) {
        EXPECT_TRUE(r.oracle.error) << r.oracle.message;
      }
      if (fusion || !f.fused_only)
        EXPECT_FALSE(r.agree) << "fusion " << fusion << ": the fault changed nothing";
      else
        EXPECT_TRUE(r.agree) << r.disagreement;
    }
  }
}

// A program that has every construct but triggers no fault's condition (no
// overflow, no NaN, in-range shifts, no boundary reads, sizes multiple of 8):
// every faulty engine agrees with the oracle on it.
TEST(Faults, QuietWhenTheBugIsNotTriggered) {
  Program p = checked(R"((program ()
    (alet ((xs (generate (ix 8) (lambda ((i (ix 1))) (+ (proj 0 i) 1)))))
      (atuple
        (map (lambda ((x i64)) (+ (shl x 1) (abs (- x 3)))) xs)
        (fold (lambda ((a i64) (b i64)) (+ a b)) 0 (replicate (spec 8 all) (fill (ix 8) 2)))
        (stencil (1) clamp (lambda ((nb (window i64 1))) (at nb 0)) xs)))))");
  for (const Engine* e : faults::all_faulty_engines()) {
    for (bool fusion : {true, false}) {
      CompileOptions options;
      options.fusion = fusion;
      DiffReport r = differential_check(p, {}, *e, options);
      EXPECT_TRUE(r.agree) << e->name() << ": " << r.disagreement;
    }
  }
}

TEST(Faults, RewrittenProgramsTypeCheck) {
  // The rewrite of every example is a valid program of the same result type.
  for (const Fault& f : faults::all_faults()) {
    Program p = checked(f.example);
    Program q = faults::apply_fault(f, p);
    EXPECT_EQ(q.result, p.result) << f.name;
  }
}

} // namespace
} // namespace strata
