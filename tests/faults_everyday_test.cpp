// The seeded faults aimed at the everyday forms' collectives
// (oracle/faults/sugar_faults.cpp): each is caught on every form it aims at,
// quiet where its bug is not triggered, and a faulty engine reports the
// errors of an expansion exactly as the oracle does.
#include <gtest/gtest.h>

#include "core/check.h"
#include "core/parser.h"
#include "oracle/differential.h"
#include "oracle/faults/faulty_engine.h"
#include "tests/test_util.h"

namespace strata {
namespace {

struct Case {
  const char* fault;
  const char* program;
};

DiffReport check_with(const char* fault, const char* text, bool fusion) {
  Program p = parse_program(text, "example.strata");
  check_program(p);
  const Engine* e = faults::find_faulty_engine(std::string("faulty:") + fault);
  EXPECT_NE(e, nullptr) << fault;
  CompileOptions options;
  options.fusion = fusion;
  options.order = faults::find_fault(fault)->example_order; // the chunks its bug needs
  return differential_check(p, {}, *e, options);
}

// Every new collective: a program the fault aimed at it changes.
const Case kCaught[] = {
    {"compact_inclusive_offsets",
     "(program () (filter (lambda (x) (> x 1)) (use (array i64 (4) 1 2 3 4))))"},
    {"compact_inclusive_offsets",
     "(program () (compact (use (array bool (2 2) true false true true)) "
     "(use (array f32 (2 2) 1.5 2.5 3.5 4.5))))"},
    {"segscan_head_one_late",
     "(program () (scanl1seg + (use (array i64 (4) 1 2 3 4)) (use (array i64 (2) 2 2))))"},
    {"segscan_head_one_late",
     "(program () (scanr1seg + (use (array i64 (5) 1 2 3 4 5)) (use (array i64 (2) 3 2))))"},
    {"segscan_head_one_late",
     "(program () (scanlseg max -100 (use (array i64 (4) 5 1 2 9)) (use (array i64 (2) 2 2))))"},
    {"segscan_head_one_late", "(program () (scanrseg * 1 (use (array i64 (2 4) 1 2 3 4 5 6 7 8)) "
                              "(use (array i64 (2) 2 2))))"},
    // In the small order: scans of 3 elements or more, in chunks of 3.
    {"segscan_restart_chunk_late",
     "(program () (scanl1seg + (use (array i64 (4) 1 2 3 4)) (use (array i64 (2) 1 3))))"},
    {"segscan_restart_chunk_late",
     "(program () (scanr1seg + (use (array i64 (5) 1 2 3 4 5)) (use (array i64 (2) 3 2))))"},
    {"stencil2_first_shape",
     "(program () (stencil2 (3) clamp (3) mirror (lambda (p q) (+ (at p 0) (at q 1))) "
     "(use (array f64 (5) 1 2 3 4 5)) (use (array f64 (3) 10 20 30))))"},
    {"stencil2_first_shape",
     "(program () (stencil2 (1 3) wrap (3 1) (constant 0i32) (lambda (p q) (- (at p 0 1) (at q -1 "
     "0))) "
     "(use (array i32 (2 3) 1 2 3 4 5 6)) (use (array i32 (2 2) 7 8 9 10))))"},
    {"gather_negative_wraps",
     "(program () (gather (use (array i64 (2) 0 -1)) (use (array i64 (3) 5 6 7))))"},
    {"scatter_first_wins",
     "(program () (scatter (use (array i64 (3) 0 1 0)) (use (array i64 (2) 0 0)) "
     "(use (array i64 (3) 7 8 9))))"},
};

TEST(EverydayFaults, EachIsCaughtOnEveryFormItAims) {
  for (const Case& c : kCaught) {
    SCOPED_TRACE(std::string(c.fault) + " on " + c.program);
    for (bool fusion : {true, false}) {
      DiffReport r = check_with(c.fault, c.program, fusion);
      EXPECT_FALSE(r.agree) << "fusion " << fusion << ": the fault changed nothing";
    }
  }
}

// The same forms where the bug does not show: nothing kept, segments of one
// element, arrays of one shape, indices in range, no colliding targets.
const Case kQuiet[] = {
    {"compact_inclusive_offsets",
     "(program () (filter (lambda (x) (> x 10)) (use (array i64 (4) 1 2 3 4))))"},
    {"segscan_head_one_late",
     "(program () (scanl1seg + (use (array i64 (3) 1 2 3)) (use (array i64 (3) 1 1 1))))"},
    // Segments that start at chunk edges; a row too short to be chunked.
    {"segscan_restart_chunk_late",
     "(program () (scanl1seg + (use (array i64 (6) 1 2 3 4 5 6)) (use (array i64 (2) 3 3))))"},
    {"segscan_restart_chunk_late",
     "(program () (scanl1seg + (use (array i64 (2) 1 2)) (use (array i64 (2) 1 1))))"},
    {"stencil2_first_shape",
     "(program () (stencil2 (3) clamp (3) mirror (lambda (p q) (+ (at p 0) (at q 1))) "
     "(use (array f64 (3) 1 2 3)) (use (array f64 (3) 10 20 30))))"},
    {"gather_negative_wraps",
     "(program () (gather (use (array i64 (2) 0 2)) (use (array i64 (3) 5 6 7))))"},
    {"scatter_first_wins",
     "(program () (scatter (use (array i64 (3) 2 1 0)) (use (array i64 (3) 0 0 0)) "
     "(use (array i64 (3) 7 8 9))))"},
};

TEST(EverydayFaults, QuietWhereTheBugDoesNotShow) {
  for (const Case& c : kQuiet) {
    SCOPED_TRACE(std::string(c.fault) + " on " + c.program);
    for (bool fusion : {true, false}) {
      DiffReport r = check_with(c.fault, c.program, fusion);
      EXPECT_TRUE(r.agree) << r.disagreement;
    }
  }
}

// A bounds error raised inside an expansion names the everyday form and the
// user's array; a faulty engine whose bug is elsewhere raises the very same
// error (its rewrite keeps the checked program's positions and names, so a
// fault is never "caught" by a message its rewrite garbled).
TEST(EverydayFaults, ExpansionErrorsAreTheOraclesUnderEveryFault) {
  const char* programs[] = {
      "(program ((f (array bool 1)) (a (array i64 1))) (compact f a))",
      "(program ((i (array i64 1)) (a (array i64 1))) (gather i a))",
  };
  Program p0 = parse_program(programs[0], "e.strata");
  check_program(p0);
  Program p1 = parse_program(programs[1], "e.strata");
  check_program(p1);
  std::vector<Array> in0 = {test::array_of<bool>({true, false, true}),
                            test::array_of<int64_t>({1, 2})};
  std::vector<Array> in1 = {test::array_of<int64_t>({0, 7}), test::array_of<int64_t>({5, 6, 7})};
  for (const Engine* e : faults::all_faulty_engines()) {
    if (e->name() == "faulty:error_message_differs" ||
        e->name() == "faulty:compact_inclusive_offsets")
      continue; // the first changes every message; the second the compaction itself
    for (bool fusion : {true, false}) {
      CompileOptions options;
      options.fusion = fusion;
      DiffReport r0 = differential_check(p0, in0, *e, options);
      ASSERT_TRUE(r0.oracle.error) << "the compaction's shapes disagree";
      EXPECT_TRUE(r0.agree) << e->name() << ": " << r0.disagreement;
      DiffReport r1 = differential_check(p1, in1, *e, options);
      ASSERT_TRUE(r1.oracle.error) << "index 7 is out of range";
      EXPECT_TRUE(r1.agree) << e->name() << ": " << r1.disagreement;
    }
  }
}

} // namespace
} // namespace strata
