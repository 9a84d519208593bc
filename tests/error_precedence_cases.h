// Which error a program raises when several could arise (issue 24):
// operation-level scalar expressions (seeds, a stencil's constant boundary,
// fill's value) are evaluated exactly when their operation's result is
// non-empty, and then before any element of it (docs/language.md, Errors).
// Hand-written programs, each with the interpreter's headline written out;
// error_precedence_test.cpp runs them on the interpreter and every engine,
// cuda_error_precedence_test.cpp on the cuda engine's host backend.
#pragma once

#include <string>
#include <vector>

#include "tests/test_util.h"

namespace strata::precedence {

struct Case {
  const char* what;
  std::string text;
  std::string headline; // the interpreter's; empty: the program succeeds
  // A fused run computes a fused producer's elements after the consumer's
  // seed, so it may raise the seed's (later) error first: the documented
  // fusion exception. Unfused runs must still raise `headline`.
  bool fused_may_differ = false;
};

// Every program takes xs = (0 1 2 3 4 5): (! xs (ix 0)) is a zero the
// engines cannot see at compile time.
inline std::vector<Array> inputs() {
  return {test::array_of<int64_t>({0, 1, 2, 3, 4, 5})};
}

#define PREC_XS "(program ((xs (array i64 1)))\n"
#define PREC_ADD "(lambda ((a i64) (b i64)) (+ a b))"
// A combining function that divides by zero on every step.
#define PREC_DIV "(lambda ((a i64) (b i64)) (quot a (- b b)))"
#define PREC_SEED "(quot 7 (! xs (ix 0)))"
#define PREC_LATER "\n    (atuple r (slice xs (spec 9)))))"

inline const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      // ---- fold
      {"fold over (0,5): empty result, the seed is not evaluated, the later slice fails",
       PREC_XS "  (alet ((r (fold " PREC_ADD " " PREC_SEED
               "\n              (generate (ix 0 5) (lambda ((i (ix 2))) 1)))))" PREC_LATER,
       "test.strata:4:15: error: slice index 9 out of bounds for dimension 0 (extent 6) in "
       "`slice`"},
      {"fold over (3,0): three seeds, the seed's error wins over the later slice",
       PREC_XS "  (alet ((r (fold " PREC_ADD " " PREC_SEED
               "\n              (generate (ix 3 0) (lambda ((i (ix 2))) 1)))))" PREC_LATER,
       "test.strata:2:54: error: division by zero in `quot` (7 quot 0)"},
      {"fold over (2,4): the seed before the combining steps",
       PREC_XS "  (alet ((r (fold " PREC_DIV " " PREC_SEED
               "\n              (generate (ix 2 4) (lambda ((i (ix 2))) 1)))))" PREC_LATER,
       "test.strata:2:63: error: division by zero in `quot` (7 quot 0)"},
      {"fold over a failing map: the map, an earlier operation, first",
       PREC_XS "  (alet ((m (map (lambda ((x i64)) (quot 1 x)) xs))\n"
               "         (r (fold " PREC_ADD " " PREC_SEED " m)))" PREC_LATER,
       "test.strata:2:36: error: division by zero in `quot` (1 quot 0)", true},
      {"fold of f64 over (2,4): a float seed before combining steps that read out of bounds",
       PREC_XS "  (alet ((r (fold (lambda ((a f64) (b f64)) (+ a (cast f64 (! xs (ix 9)))))\n"
               "              (cast f64 " PREC_SEED ")\n"
               "              (generate (ix 2 4) (lambda ((i (ix 2))) 1.5)))))" PREC_LATER,
       "test.strata:3:25: error: division by zero in `quot` (7 quot 0)"},
      // ---- foldseg
      {"foldseg over (0,4): empty result, the later slice fails",
       PREC_XS "  (alet ((r (foldseg " PREC_ADD " " PREC_SEED
               "\n              (generate (ix 0 4) (lambda ((i (ix 2))) 1))"
               " (use (array i64 (2) 2 2)))))" PREC_LATER,
       "test.strata:4:15: error: slice index 9 out of bounds for dimension 0 (extent 6) in "
       "`slice`"},
      {"foldseg over (3,0) with no segments: result (3,0), the later slice fails",
       PREC_XS "  (alet ((r (foldseg " PREC_ADD " " PREC_SEED
               "\n              (generate (ix 3 0) (lambda ((i (ix 2))) 1))"
               " (use (array i64 (0))))))" PREC_LATER,
       "test.strata:4:15: error: slice index 9 out of bounds for dimension 0 (extent 6) in "
       "`slice`"},
      {"foldseg over (3,0) with two empty segments: result (3,2), the seed's error",
       PREC_XS "  (alet ((r (foldseg " PREC_ADD " " PREC_SEED
               "\n              (generate (ix 3 0) (lambda ((i (ix 2))) 1))"
               " (use (array i64 (2) 0 0)))))" PREC_LATER,
       "test.strata:2:57: error: division by zero in `quot` (7 quot 0)"},
      {"foldseg over (2,6): the seed before the combining steps",
       PREC_XS "  (alet ((r (foldseg " PREC_DIV " " PREC_SEED
               "\n              (generate (ix 2 6) (lambda ((i (ix 2))) 1))"
               " (use (array i64 (2) 2 4)))))" PREC_LATER,
       "test.strata:2:66: error: division by zero in `quot` (7 quot 0)"},
      // ---- scans
      {"scanl over (0,5): empty result, the later slice fails",
       PREC_XS "  (alet ((r (scanl " PREC_ADD " " PREC_SEED
               "\n              (generate (ix 0 5) (lambda ((i (ix 2))) 1)))))" PREC_LATER,
       "test.strata:4:15: error: slice index 9 out of bounds for dimension 0 (extent 6) in "
       "`slice`"},
      {"scanl over (3,0): result (3,1) of seeds, the seed's error",
       PREC_XS "  (alet ((r (scanl " PREC_ADD " " PREC_SEED
               "\n              (generate (ix 3 0) (lambda ((i (ix 2))) 1)))))" PREC_LATER,
       "test.strata:2:55: error: division by zero in `quot` (7 quot 0)"},
      {"scanr over (2,5): the seed before the combining steps",
       PREC_XS "  (alet ((r (scanr " PREC_DIV " " PREC_SEED
               "\n              (generate (ix 2 5) (lambda ((i (ix 2))) 1)))))" PREC_LATER,
       "test.strata:2:64: error: division by zero in `quot` (7 quot 0)"},
      {"scanl' over (3,0): the totals are non-empty, the seed's error",
       PREC_XS "  (alet ((r (aproj 1 (scanl' " PREC_ADD " " PREC_SEED
               "\n              (generate (ix 3 0) (lambda ((i (ix 2))) 1))))))" PREC_LATER,
       "test.strata:2:65: error: division by zero in `quot` (7 quot 0)"},
      {"scanl' over (0,4): both results empty, the later slice fails",
       PREC_XS "  (alet ((r (aproj 0 (scanl' " PREC_ADD " " PREC_SEED
               "\n              (generate (ix 0 4) (lambda ((i (ix 2))) 1))))))" PREC_LATER,
       "test.strata:4:15: error: slice index 9 out of bounds for dimension 0 (extent 6) in "
       "`slice`"},
      // ---- stencil
      {"stencil over an empty array: the constant is not evaluated, the later slice fails",
       PREC_XS "  (alet ((e (generate (ix 0) (lambda ((i (ix 1))) 0)))\n"
               "         (r (stencil (3) (constant " PREC_SEED
               ")\n              (lambda ((nb (window i64 1))) (at nb -1)) e)))" PREC_LATER,
       "test.strata:5:15: error: slice index 9 out of bounds for dimension 0 (extent 6) in "
       "`slice`"},
      {"stencil over an empty array alone: the empty result",
       PREC_XS "  (stencil (3) (constant " PREC_SEED
               ")\n    (lambda ((nb (window i64 1))) (at nb -1))"
               "\n    (generate (ix 0) (lambda ((i (ix 1))) 0))))",
       ""},
      {"stencil over (3,0): the constant is not evaluated, the later slice fails",
       PREC_XS "  (alet ((e (generate (ix 3 0) (lambda ((i (ix 2))) 0)))\n"
               "         (r (stencil (3 3) (constant " PREC_SEED
               ")\n              (lambda ((nb (window i64 2))) (at nb -1 1)) e)))" PREC_LATER,
       "test.strata:5:15: error: slice index 9 out of bounds for dimension 0 (extent 6) in "
       "`slice`"},
      {"stencil with a window of 1 over (6): nothing reads past the edge, the constant's error",
       PREC_XS "  (alet ((r (stencil (1) (constant " PREC_SEED
               ")\n              (lambda ((nb (window i64 1))) (at nb 0)) xs)))" PREC_LATER,
       "test.strata:2:36: error: division by zero in `quot` (7 quot 0)"},
      {"stencil (window 1) whose elements fail: the constant first",
       PREC_XS "  (alet ((r (stencil (1) (constant " PREC_SEED ")\n"
               "              (lambda ((nb (window i64 1))) (quot 1 (- (at nb 0) (at nb 0))))"
               " xs)))" PREC_LATER,
       "test.strata:2:36: error: division by zero in `quot` (7 quot 0)"},
      {"stencil (window 3) whose elements fail: the constant first",
       PREC_XS "  (alet ((r (stencil (3) (constant " PREC_SEED ")\n"
               "              (lambda ((nb (window i64 1))) (quot (at nb 1) (- (at nb 0) 3)))"
               " xs)))" PREC_LATER,
       "test.strata:2:36: error: division by zero in `quot` (7 quot 0)"},
      // ---- fill, unit
      {"fill of shape (0): the value is not evaluated, the later slice fails",
       PREC_XS "  (alet ((r (fill (ix 0) " PREC_SEED ")))" PREC_LATER,
       "test.strata:3:15: error: slice index 9 out of bounds for dimension 0 (extent 6) in "
       "`slice`"},
      {"fill of shape (2): the value's error",
       PREC_XS "  (alet ((r (fill (ix 2) " PREC_SEED ")))" PREC_LATER,
       "test.strata:2:26: error: division by zero in `quot` (7 quot 0)"},
      {"unit: one element, always evaluated",
       PREC_XS "  (alet ((r (unit " PREC_SEED ")))" PREC_LATER,
       "test.strata:2:19: error: division by zero in `quot` (7 quot 0)"},
  };
  return all;
}

#undef PREC_XS
#undef PREC_ADD
#undef PREC_DIV
#undef PREC_SEED
#undef PREC_LATER

} // namespace strata::precedence
