// Every run-time error has the same headline on every engine (issue 16): the
// interpreter and each available engine (tbb, jit, cuda; fused and unfused)
// raise the same kind with the same `file:line:col: error: message`, built in
// core/runtime_errors.h. Each program's headline is pinned here, so this file
// is also the list of the unified message forms.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "oracle/registry.h"
#include "tests/test_util.h"

namespace strata {
namespace {

using namespace strata::test;
using I = int64_t;

const Array kXs = array_of<I>({0, 1, 2, 3, 4, 5});
const Array kM = array_of<I>({1, 2, 3, 4, 5, 6}, {2, 3});

struct Case {
  const char* what;
  std::string text;
  std::vector<Array> inputs;
  ErrorKind kind;
  std::string headline;
};

#define XS "(program ((xs (array i64 1)))\n"
#define M "(program ((m (array i64 2)))\n"
#define NONE "(program ()\n"
#define ADD "(lambda ((a i64) (b i64)) (+ a b))"

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"!",
       XS "  (generate (ix 6 3)\n    (lambda ((i (ix 2))) (! xs (ix (+ (proj 0 i) (proj 1 i)))))))",
       {kXs},
       ErrorKind::Bounds,
       "test.strata:3:26: error: index (6) out of bounds for shape (6) in `!` of `xs`"},
      {"! of a computed array",
       XS "  (alet ((ys (map (lambda ((x i64)) (* x 2)) xs)))\n"
          "    (generate (ix 2) (lambda ((i (ix 1))) (! ys (ix (+ (proj 0 i) 5)))))))",
       {kXs},
       ErrorKind::Bounds,
       "test.strata:3:43: error: index (6) out of bounds for shape (6) in `!` of `ys`"},
      {"! through another name",
       XS "  (alet ((ys xs))\n    (generate (ix 1) (lambda ((i (ix 1))) (! ys (ix 9))))))",
       {kXs},
       ErrorKind::Bounds,
       "test.strata:3:43: error: index (9) out of bounds for shape (6) in `!` of `ys`"},
      {"!!",
       XS "  (map (lambda ((x i64)) (!! xs (* x 2))) xs))",
       {kXs},
       ErrorKind::Bounds,
       "test.strata:2:26: error: linear index 6 out of bounds for size 6 (shape (6)) in `!!` of "
       "`xs`"},
      {"backpermute of an input",
       XS "  (backpermute (ix 4) (lambda ((i (ix 1))) (ix (* 2 (proj 0 i)))) xs))",
       {kXs},
       ErrorKind::Bounds,
       "test.strata:2:3: error: source index (6) out of bounds for shape (6) in `backpermute`"},
      {"backpermute of a delayed array",
       NONE "  (backpermute (ix 4) (lambda ((i (ix 1))) (ix (* 2 (proj 0 i)))) (fill (ix 5) 1)))",
       {},
       ErrorKind::Bounds,
       "test.strata:2:3: error: source index (6) out of bounds for shape (5) in `backpermute`"},
      {"permute target",
       XS "  (permute " ADD
          " (fill (ix 3) 0)\n    (lambda ((i (ix 1))) (ix (- 5 (proj 0 i)))) xs))",
       {kXs},
       ErrorKind::Bounds,
       "test.strata:2:3: error: target index (5) out of bounds for shape (3) in `permute` (source "
       "element (0))"},
      {"slice",
       M "  (slice m (spec 2 all)))",
       {kM},
       ErrorKind::Bounds,
       "test.strata:2:3: error: slice index 2 out of bounds for dimension 0 (extent 2) in `slice`"},
      {"slice, negative",
       M "  (map (lambda ((x i64)) x) (slice m (spec all -1))))",
       {kM},
       ErrorKind::Bounds,
       "test.strata:2:29: error: slice index -1 out of bounds for dimension 1 (extent 3) in "
       "`slice`"},
      {"to-index",
       NONE "  (unit (to-index (ix 2 3) (ix 2 0))))",
       {},
       ErrorKind::Bounds,
       "test.strata:2:9: error: index (2,0) out of bounds for shape (2,3) in `to-index`"},
      {"from-index",
       NONE "  (unit (proj 1 (from-index (ix 2 3) 6))))",
       {},
       ErrorKind::Bounds,
       "test.strata:2:17: error: linear index 6 out of bounds for size 6 (shape (2,3)) in "
       "`from-index`"},
      {"generate, negative extent",
       NONE "  (generate\n    (ix -1) (lambda ((i (ix 1))) 0)))",
       {},
       ErrorKind::Shape,
       "test.strata:2:3: error: negative extent in shape (-1) of `generate`"},
      {"fill, negative extent",
       NONE "  (fill (ix 2 -3) 0))",
       {},
       ErrorKind::Shape,
       "test.strata:2:3: error: negative extent in shape (2,-3) of `fill`"},
      {"backpermute, negative extent",
       XS "  (map (lambda ((x i64)) x)\n    (backpermute (ix -2) (lambda ((i (ix 1))) i) xs)))",
       {kXs},
       ErrorKind::Shape,
       "test.strata:3:5: error: negative extent in shape (-2) of `backpermute`"},
      {"replicate, negative extent",
       XS "  (replicate (spec -2 all) xs))",
       {kXs},
       ErrorKind::Shape,
       "test.strata:2:3: error: negative extent in shape (-2,6) of `replicate`"},
      {"reshape, negative extent",
       XS "  (reshape (ix -2 -3) xs))",
       {kXs},
       ErrorKind::Shape,
       "test.strata:2:3: error: negative extent in shape (-2,-3) of `reshape`"},
      {"reshape, sizes differ",
       XS "  (reshape (ix 4 2) xs))",
       {kXs},
       ErrorKind::Shape,
       "test.strata:2:3: error: reshape from shape (6) (6 elements) to shape (4,2) (8 elements): "
       "sizes differ"},
      {"fold1 over an empty row",
       NONE "  (fold1 " ADD " (fill (ix 2 3 0) 1)))",
       {},
       ErrorKind::EmptyReduction,
       "test.strata:2:3: error: fold1 over an empty row (row (0,0) of shape (2,3,0))"},
      {"foldseg, negative segment",
       XS "  (foldseg " ADD " 0 xs (use (array i64 (2) 7 -1))))",
       {kXs},
       ErrorKind::Shape,
       "test.strata:2:3: error: foldseg: segment 1 has negative length -1"},
      {"foldseg, sum",
       XS "  (foldseg " ADD " 0 xs (use (array i64 (2) 2 2))))",
       {kXs},
       ErrorKind::Shape,
       "test.strata:2:3: error: foldseg: segment lengths sum to 4 but the innermost dimension of "
       "(6) is 6"},
      {"division in zipwith",
       XS "  (zipwith (lambda ((x i64) (y i64)) (mod (+ x 10) (- y 2))) xs xs))",
       {kXs},
       ErrorKind::DivisionByZero,
       "test.strata:2:38: error: division by zero in `mod` (12 mod 0)"},
      {"division in fold",
       M "  (fold (lambda ((a i64) (b i64)) (quot a b)) 100 m))",
       {array_of<I>({1, 2, 3, 4, 0, 6}, {2, 3})},
       ErrorKind::DivisionByZero,
       "test.strata:2:35: error: division by zero in `quot` (25 quot 0)"},
      {"division in scanl1",
       M "  (scanl1 (lambda ((a i64) (b i64)) (quot a b)) m))",
       {array_of<I>({1, 2, 3, 4, 0, 6}, {2, 3})},
       ErrorKind::DivisionByZero,
       "test.strata:2:37: error: division by zero in `quot` (4 quot 0)"},
      {"division in foldseg",
       XS "  (foldseg (lambda ((a i64) (b i64)) (quot b a)) 0 xs\n"
          "           (use (array i64 (2) 2 4))))",
       {kXs},
       ErrorKind::DivisionByZero,
       "test.strata:2:38: error: division by zero in `quot` (0 quot 0)"},
      {"huge generate",
       NONE "  (map (lambda ((x i64)) x)\n"
            "    (generate (ix 4611686018427387904 4) (lambda ((i (ix 2))) 0))))",
       {},
       ErrorKind::Resource,
       "test.strata:3:5: error: shape (4611686018427387904,4) has too many elements in "
       "`generate`"},
      {"huge fill",
       NONE "  (map (lambda ((x i64)) x)\n    (fill (ix 4611686018427387904) 0)))",
       {},
       ErrorKind::Resource,
       "test.strata:3:5: error: array of shape (4611686018427387904) is too large in `fill`"},
      {"huge replicate",
       XS "  (map (lambda ((x i64)) x)\n"
          "    (replicate (spec 4611686018427387904 4611686018427387904 all) xs)))",
       {kXs},
       ErrorKind::Resource,
       "test.strata:3:5: error: shape (4611686018427387904,4611686018427387904,6) has too many "
       "elements in `replicate`"},
      // Inside functions: the error names the call it happened in, the
      // second of two calls of the same function here.
      {"in a function",
       "(define (d (a i64) (b i64)) (quot a b))\n"
       "(adefine (ratios (v (array i64 1)) (k i64)) (map (lambda (x) (d x (- x k))) v))\n" XS
       "  (atuple (ratios xs 9) (ratios xs 4)))",
       {kXs},
       ErrorKind::DivisionByZero,
       "test.strata:1:29: error: division by zero in `quot` (4 quot 0), in `d` called at "
       "test.strata:2:62, in `ratios` called at test.strata:4:25"},
      {"gather",
       XS "  (gather (map (lambda (x) (* x 2)) xs) xs))",
       {kXs},
       ErrorKind::Bounds,
       "test.strata:2:3: error: index (6) out of bounds for shape (6) in `gather` of `xs`, in "
       "`gather` called at test.strata:2:3"},
      // The expansion's own top node (a fold1) names the call too.
      {"maximum of nothing",
       XS "  (maximum (take 0 xs)))",
       {kXs},
       ErrorKind::EmptyReduction,
       "test.strata:2:3: error: fold1 over an empty row (row () of shape (0)), in `maximum` "
       "called at test.strata:2:3"},
      // -1 is a target out of range too (not permute's `ignore`)
      {"scatter",
       XS "  (scatter (use (array i64 (2) 0 -1)) xs (use (array i64 (2) 7 8))))",
       {kXs},
       ErrorKind::Bounds,
       "test.strata:2:3: error: index (-1) out of bounds for shape (6) in `scatter` of `xs`, in "
       "`scatter` called at test.strata:2:3"},
      {"compact",
       XS "  (compact (use (array bool (4) true false true true)) xs))",
       {kXs},
       ErrorKind::Bounds,
       "test.strata:2:3: error: index (4) out of bounds for shape (4) in `compact` of `flags`, "
       "in `compact` called at test.strata:2:3"},
      {"segmented scan",
       XS "  (scanl1seg + xs (use (array i64 (2) 2 3))))",
       {kXs},
       ErrorKind::Shape,
       "test.strata:2:3: error: foldseg: segment lengths sum to 5 but the innermost dimension of "
       "(6) is 6, in `scanl1seg` called at test.strata:2:3"},
  };
  return all;
}

// The error a program raises on `engine`, or a Usage error saying none came.
Error failure_on(const Engine& engine, const Program& p, const std::vector<Array>& inputs,
                 bool fusion) {
  try {
    (void)engine.compile(p, CompileOptions{fusion, true})->run(inputs);
  } catch (const Error& e) {
    return e;
  }
  return Error(ErrorKind::Usage, "<no error raised>");
}

TEST(RuntimeErrorsEveryEngine, TheInterpreterGivesTheUnifiedHeadlines) {
  for (const Case& c : cases()) {
    Program p = parse_and_check(c.text);
    Error e = failure_on(*find_engine("interp"), p, c.inputs, true);
    EXPECT_EQ(error_kind_name(e.kind()), error_kind_name(c.kind)) << c.what << ": " << e.what();
    EXPECT_EQ(e.headline(), c.headline) << c.what;
  }
}

TEST(RuntimeErrorsEveryEngine, EveryEngineGivesTheInterpretersHeadline) {
  int engines = 0;
  std::vector<const Engine*> under_test = all_engines();
  // The distributed engine at 2 and 3 ranks too: errors on some ranks' rows.
  for (const char* name : {"mpi:2", "mpi:3"})
    if (const Engine* e = find_engine(name)) under_test.push_back(e);
  for (const Engine* engine : under_test) {
    std::string why;
    if (engine->name() == "interp" || !engine->available(why)) continue;
    ++engines;
    for (const Case& c : cases()) {
      Program p = parse_and_check(c.text);
      for (bool fusion : {true, false}) {
        Error e = failure_on(*engine, p, c.inputs, fusion);
        std::string where = engine->name() + (fusion ? " fused: " : " unfused: ") + c.what;
        EXPECT_EQ(error_kind_name(e.kind()), error_kind_name(c.kind)) << where << ": " << e.what();
        EXPECT_EQ(e.headline(), c.headline) << where;
      }
    }
  }
  if (engines == 0) GTEST_SKIP() << "no engine but the interpreter";
}

} // namespace
} // namespace strata
