// The type checker: ill-typed programs are rejected with ErrorKind::Type at
// the offending form's line:col and a message saying what was expected and
// found; well-typed programs get the types docs/language.md gives them.
//
// Most bad programs below put the offending form at the start of line 3,
// indented by four spaces, so its position is 3:5.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fusion/fuse.h"
#include "tests/test_util.h"

namespace strata {
namespace {

using namespace strata::test;

struct Bad {
  const char* name;
  const char* text;
  int line, col;
  const char* message; // a substring of the message
};

// Programs with parameters xs: (array i64 1) and m: (array i64 2).
#define XS "(program ((xs (array i64 1)))\n"
#define XSM "(program ((xs (array i64 1)) (m (array i64 2)))\n"
#define NONE "(program ()\n"

const Bad kBad[] = {
    {"mixed operand types", NONE "  (unit\n    (+ 1i32 1.0)))", 3, 5,
     "`+` expects operands of the same type, found i32 and f64"},
    {"a literal of another type", NONE "  (unit\n    (* 2.5f32 64)))", 3, 5,
     "`*` expects operands of the same type, found f32 and i64; write the literal as 64.0f32"},
    {"a fold's literal seed", "(program ((fs (array f32 1)))\n  (fold +\n    0 fs))", 3, 5,
     "fold seed: expected f32, found i64; write the literal as 0.0f32"},
    {"/ on integers", NONE "  (unit\n    (/ 7 2)))", 3, 5,
     "`/` expects floating-point operands, found i64"},
    {"quot on floats", NONE "  (unit\n    (quot 1.0 2.0)))", 3, 5,
     "`quot` expects integral operands, found f64"},
    {"mod on floats", NONE "  (unit\n    (mod 1f32 2f32)))", 3, 5,
     "`mod` expects integral operands, found f32"},
    {"bitwise on floats", NONE "  (unit\n    (band 1f32 2f32)))", 3, 5,
     "`band` expects integral operands, found f32"},
    {"shift on floats", NONE "  (unit\n    (shl 1.0 2.0)))", 3, 5,
     "`shl` expects integral operands, found f64"},
    {"arithmetic on bool", NONE "  (unit\n    (+ true false)))", 3, 5,
     "`+` expects numeric operands, found bool"},
    {"not on an integer", NONE "  (unit\n    (not 1)))", 3, 5,
     "`not` expects bool operands, found i64"},
    {"sqrt on an integer", NONE "  (unit\n    (sqrt 4)))", 3, 5,
     "`sqrt` expects floating-point operands, found i64"},
    {"isnan on an integer", NONE "  (unit\n    (isnan 4i32)))", 3, 5,
     "`isnan` expects floating-point operands, found i32"},
    {"comparison of tuples", NONE "  (unit (==\n    (tuple 1.0) (tuple 1.0))))", 3, 5,
     "`==`: expected a scalar operand, found (tuple f64)"},
    {"if branches differ", NONE "  (unit\n    (if true 1 2.0)))", 3, 5,
     "if: both branches must have the same type, found i64 and f64"},
    {"if condition not bool", NONE "  (unit (if\n    1 2 3)))", 3, 5,
     "if condition: expected bool, found i64"},
    {"proj out of range", NONE "  (unit\n    (proj 2 (tuple 1 2.0))))", 3, 5,
     "proj: index 2 out of range for (tuple i64 f64)"},
    {"proj of a scalar", NONE "  (unit\n    (proj 0 1)))", 3, 5,
     "proj: expected a tuple, found i64"},
    {"cast of a tuple", NONE "  (unit\n    (cast i32 (tuple 1 true))))", 3, 5,
     "cast: expected a scalar operand, found (tuple i64 bool)"},
    {"ix component not i64", NONE "  (fill (ix 2\n    2i32) 0))", 3, 5,
     "ix component: expected i64, found i32"},
    {"wrong lambda arity", XS "  (map\n    (lambda ((a i64) (b i64)) a) xs))", 3, 5,
     "map: expected a function of 1 parameter(s), found 2"},
    {"lambda parameter type", XS "  (map (lambda (\n    (a f32)) a) xs))", 3, 5,
     "map: parameter `a` should have type i64, found f32"},
    {"generate parameter rank", NONE "  (generate (ix 3) (lambda (\n    (i (ix 2))) 0)))", 3, 5,
     "generate: parameter `i` should have type (ix 1), found (ix 2)"},
    {"fold function result", XS "  (fold\n    (lambda ((a i64) (b i64)) (< a b)) 0 xs))", 3, 5,
     "fold function result: expected i64, found bool"},
    {"fold seed type", XS "  (fold (lambda ((a i64) (b i64)) (+ a b))\n    0.0 xs))", 3, 5,
     "fold seed: expected i64, found f64"},
    {"fold1 of rank 0",
     NONE "  (map (lambda ((x i64)) x)\n    (fold1 (lambda ((a i64) (b i64)) a) (unit 1))))", 3, 5,
     "fold1: expected an array of rank at least 1, found (array i64 0)"},
    {"scanr seed type", XS "  (scanr (lambda ((a i64) (b i64)) (+ a b))\n    true xs))", 3, 5,
     "scanr seed: expected i64, found bool"},
    {"foldseg segments type",
     XS "  (foldseg (lambda ((a i64) (b i64)) (+ a b)) 0 xs\n    (use (array i32 (1) 3))))", 3, 5,
     "foldseg segments: expected (array i64 1), found (array i32 1)"},
    {"zipwith ranks differ",
     XSM "  (map (lambda ((x i64)) x)\n    (zipwith (lambda ((a i64) (b i64)) a) xs m)))", 3, 5,
     "zipwith: operands must have the same rank, found (array i64 1) and (array i64 2)"},
    {"nested: shape of map",
     XS "  (map (lambda ((x i64)) (proj 0 (shape\n    (map (lambda ((y i64)) y) xs)))) xs))", 3, 5,
     "nested data parallelism: `shape` needs an array variable, found a `map` expression"},
    {"nested: ! of generate",
     NONE "  (generate (ix 2) (lambda ((i (ix 1))) (!\n    (generate (ix 2) (lambda ((j (ix 1))) "
          "0)) i))))",
     3, 5, "nested data parallelism: `!` needs an array variable, found a `generate` expression"},
    {"nested: size of use", NONE "  (unit (size\n    (use (array i64 (1) 1)))))", 3, 5,
     "nested data parallelism: `size` needs an array variable"},
    {"unknown variable", NONE "  (unit (+ 1\n    y)))", 3, 5, "unknown variable `y`"},
    {"unknown array variable", NONE "  (map (lambda ((x i64)) x)\n    zs))", 3, 5,
     "unknown array variable `zs`"},
    {"unknown array in !", NONE "  (unit (!\n    zs (ix 0))))", 3, 5,
     "unknown array variable `zs`"},
    {"scalar used as an array", XS "  (map (lambda ((x i64)) (!\n    x (ix 0))) xs))", 3, 5,
     "`x` is a scalar, but `!` needs an array"},
    {"array used as a scalar", XS "  (map (lambda ((x i64)) (+ x\n    xs)) xs))", 3, 5,
     "`xs` is an array; a scalar expression can only read it"},
    {"unit of an array", XS "  (unit\n    xs))", 3, 5, "`xs` is an array"},
    {"! index rank", XSM "  (unit (! m\n    (ix 0))))", 3, 5,
     "!: expected an index of rank 2, found rank 1"},
    {"!! position type", XS "  (unit (!! xs\n    1i32)))", 3, 5,
     "!! position: expected i64, found i32"},
    {"the of rank 1", XS "  (unit\n    (the xs)))", 3, 5,
     "the: expected an array of rank 0, found (array i64 1)"},
    {"to-index ranks differ", NONE "  (unit\n    (to-index (ix 2 2) (ix 1))))", 3, 5,
     "to-index: shape and index ranks differ (2 and 1)"},
    {"at outside the window",
     XS "  (stencil (3) clamp (lambda ((nb (window i64 1)))\n    (at nb 2)) xs))", 3, 5,
     "at: offset 2 in dimension 0 is outside the window (radius 1)"},
    {"at offset count",
     XS "  (stencil (3) clamp (lambda ((nb (window i64 1)))\n    (at nb 0 0)) xs))", 3, 5,
     "at: expected 1 offset(s) for a window of rank 1, found 2"},
    {"even stencil window",
     XS "  (map (lambda ((x i64)) x)\n    (stencil (4) clamp (lambda ((nb (window i64 1))) (at nb "
        "0)) xs)))",
     3, 5, "stencil: window sizes must be odd and positive, found 4"},
    {"stencil window count",
     XS "  (map (lambda ((x i64)) x)\n    (stencil (3 3) clamp (lambda ((nb (window i64 2))) (at "
        "nb 0 0)) xs)))",
     3, 5, "stencil: expected 1 window size(s) for an array of rank 1, found 2"},
    {"stencil constant type",
     XS "  (stencil (3) (constant\n    1.0) (lambda ((nb (window i64 1))) (at nb 0)) xs))", 3, 5,
     "stencil boundary constant: expected i64, found f64"},
    {"stencil returns its window",
     XS "  (stencil (3) clamp (lambda ((nb (window i64 1)))\n    nb) xs))", 3, 5,
     "a function cannot return a stencil window"},
    {"replicate all count", XS "  (map (lambda ((x i64)) x)\n    (replicate (spec all 2 all) xs)))",
     3, 5, "replicate: the spec must have one `all` per source dimension (1), found 2"},
    {"replicate extent type", XS "  (replicate (spec\n    2.0 all) xs))", 3, 5,
     "replicate spec: expected i64, found f64"},
    {"slice spec length", XSM "  (map (lambda ((x i64)) x)\n    (slice m (spec all))))", 3, 5,
     "slice: the spec must have one entry per source dimension (2), found 1"},
    {"awhile condition type",
     XS "  (awhile\n    (lambda ((s (array i64 1))) (map (lambda ((x i64)) (> x 0)) s))\n    "
        "(lambda ((s (array i64 1))) s) xs))",
     3, 5, "awhile condition: expected (array bool 0), found (array bool 1)"},
    {"awhile body type",
     XS "  (awhile (lambda ((s (array i64 1))) (unit false))\n    (lambda ((s (array i64 1))) "
        "(fill (ix 1 1) 0)) xs))",
     3, 5, "awhile body: expected (array i64 1), found (array i64 2)"},
    {"acond branches differ",
     XS "  (map (lambda ((x i64)) x)\n    (acond true xs (fill (ix 2 2) 0))))", 3, 5,
     "acond: both branches must have the same type, found (array i64 1) and (array i64 2)"},
    {"acond condition type", XS "  (acond\n    1 xs xs))", 3, 5,
     "acond condition: expected bool, found i64"},
    {"permute target rank",
     XS "  (permute (lambda ((a i64) (b i64)) (+ a b)) (fill (ix 3) 0)\n    (lambda ((i (ix 1))) "
        "(ix 0 0)) xs))",
     3, 5, "permute target index: expected (ix 1), found (ix 2)"},
    {"permute element types",
     XS "  (permute (lambda ((a f64) (b f64)) (+ a b)) (fill (ix 3) 0.0) (lambda ((i (ix 1))) i)\n "
        "   xs))",
     3, 5, "permute source element type: expected f64, found i64"},
    {"backpermute index rank", XS "  (backpermute (ix 2)\n    (lambda ((i (ix 1))) (ix 0 0)) xs))",
     3, 5, "backpermute source index: expected (ix 1), found (ix 2)"},
    {"reshape shape not an index", XS "  (reshape\n    6 xs))", 3, 5,
     "reshape shape: expected an index (ix R), found i64"},
    {"while step type",
     NONE "  (unit (while (lambda ((s i64)) (< s 3))\n    (lambda ((s i64)) 1.0) 0)))", 3, 5,
     "while step: expected i64, found f64"},
    {"while condition type",
     NONE "  (unit (while\n    (lambda ((s i64)) s) (lambda ((s i64)) s) 0)))", 3, 5,
     "while condition: expected bool, found i64"},
    {"aproj out of range", XS "  (map (lambda ((x i64)) x)\n    (aproj 2 (atuple xs xs))))", 3, 5,
     "aproj: index 2 out of range"},
    {"program parameter not an array", "(program\n  (\n    (n i64))\n  (unit 1))", 3, 5,
     "program parameter `n` must have an array type, found i64"},
};

TEST(CheckErrors, IllTypedProgramsAreRejectedAtTheRightPlace) {
  EXPECT_GE(std::size(kBad), 25u);
  for (const Bad& bad : kBad) {
    SCOPED_TRACE(bad.name);
    Program p;
    try {
      p = parse_program(bad.text, "test.strata");
    } catch (const Error& e) {
      ADD_FAILURE() << bad.name << ": does not parse: " << e.what();
      continue;
    }
    try {
      check_program(p);
      ADD_FAILURE() << bad.name << ": accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Type) << e.what();
      EXPECT_EQ(e.loc().line, bad.line) << e.what();
      EXPECT_EQ(e.loc().col, bad.col) << e.what();
      EXPECT_NE(e.message().find(bad.message), std::string::npos)
          << "message: " << e.message() << "\nexpected to contain: " << bad.message;
      const std::string where =
          "test.strata:" + std::to_string(bad.line) + ":" + std::to_string(bad.col) + ": error: ";
      EXPECT_EQ(std::string(e.what()).rfind(where, 0), 0u) << e.what();
    }
  }
}

// ------------------------------------------------------------- well-typed
TEST(CheckTypes, ResultTypesOfCollectives) {
  struct Good {
    const char* text;
    const char* result;
  };
  const Good good[] = {
      {"(program ((xs (array i32 1))) (map (lambda ((x i32)) (cast f64 x)) xs))", "(array f64 1)"},
      {"(program ((m (array f32 2))) (fold (lambda ((a f32) (b f32)) (+ a b)) 0f32 m))",
       "(array f32 1)"},
      {"(program ((m (array f32 2))) (fold1 (lambda ((a f32) (b f32)) (+ a b)) m))",
       "(array f32 1)"},
      {"(program ((xs (array i32 1))) (scanl' (lambda ((a i32) (b i32)) (+ a b)) 0i32 xs))",
       "(tuple (array i32 1) (array i32 0))"},
      {"(program ((xs (array i32 1))) (scanr (lambda ((a i32) (b i32)) (+ a b)) 0i32 xs))",
       "(array i32 1)"},
      {"(program () (generate (ix) (lambda ((i (ix 0))) true)))", "(array bool 0)"},
      {"(program () (generate (ix 2 3) (lambda ((i (ix 2))) i)))", "(array (ix 2) 2)"},
      {"(program ((xs (array u8 1))) (replicate (spec 2 all 3) xs))", "(array u8 3)"},
      {"(program ((m (array u8 3))) (slice m (spec 1 all 2)))", "(array u8 1)"},
      {"(program ((xs (array u8 1))) (reshape (ix 1 1 1 1) xs))", "(array u8 4)"},
      {"(program ((xs (array i8 1))) (backpermute (ix) (lambda ((i (ix 0))) (ix 0)) xs))",
       "(array i8 0)"},
      {"(program () (use (array (tuple i32 f32) (1) (1 0.5))))", "(array (tuple i32 f32) 1)"},
      {"(program ((a (array i64 1)) (b (array f64 1))) (atuple b (atuple a)))",
       "(tuple (array f64 1) (tuple (array i64 1)))"},
      {"(program ((xs (array i64 1))) (foldseg (lambda ((a i64) (b i64)) (+ a b)) 0 xs (use (array "
       "i64 (1) 0))))",
       "(array i64 1)"},
      {"(program ((xs (array f32 2))) (stencil (3 1) mirror (lambda ((nb (window f32 2))) (< (at "
       "nb -1 0) 0f32)) xs))",
       "(array bool 2)"},
      {"(program ((xs (array f64 1))) (acond (> (size xs) 0) xs (fill (ix 3) 1.0)))",
       "(array f64 1)"},
  };
  for (const Good& g : good) {
    SCOPED_TRACE(g.text);
    Program p = parse_and_check(g.text);
    EXPECT_EQ(p.result.str(), g.result);
    EXPECT_EQ(p.body->type, p.result);
  }
}

TEST(CheckTypes, NodeTypesAreFilledIn) {
  Program p = parse_and_check("(program ((m (array f64 2)) (v (array f64 1)))"
                              "  (fold (lambda ((a f64) (b f64)) (+ a b)) 0.0"
                              "        (zipwith (lambda ((x f64) (y f64)) (* x y))"
                              "                 m"
                              "                 (replicate (spec (proj 0 (shape m)) all) v))))");
  EXPECT_EQ(p.result.str(), "(array f64 1)");
  const auto& fold = std::get<ac::Fold>(p.body->node);
  EXPECT_EQ(fold.seed->type.str(), "f64");
  EXPECT_EQ(fold.f.body->type.str(), "f64");
  EXPECT_EQ(fold.a->type.str(), "(array f64 2)");
  const auto& zip = std::get<ac::ZipWith>(fold.a->node);
  EXPECT_EQ(zip.a->type.str(), "(array f64 2)");
  EXPECT_EQ(zip.b->type.str(), "(array f64 2)");
  const auto& rep = std::get<ac::Replicate>(zip.b->node);
  EXPECT_EQ(rep.spec[0].extent->type.str(), "i64");
  const auto& proj = std::get<ex::Proj>(rep.spec[0].extent->node);
  EXPECT_EQ(proj.tuple->type.str(), "(ix 2)");
  EXPECT_EQ(proj.tuple->type, Type::index(2));
}

TEST(CheckTypes, ScalarFormsAndScoping) {
  // Sequential let with shadowing by another type; while capturing the lambda's variables.
  Program p = parse_and_check("(program ((xs (array i32 1)))"
                              "  (map (lambda ((x i32))"
                              "    (let ((a x) (a (cast f32 a)) (n 3))"
                              "      (proj 0 (while (lambda ((s (tuple f32 i64))) (< (proj 1 s) n))"
                              "                     (lambda ((s (tuple f32 i64))) (tuple (* (proj "
                              "0 s) a) (+ (proj 1 s) 1)))"
                              "                     (tuple a 0)))))"
                              "    xs))");
  EXPECT_EQ(p.result.str(), "(array f32 1)");
  const auto& map = std::get<ac::Map>(p.body->node);
  EXPECT_EQ(map.f.body->type.str(), "f32");
  const auto& let = std::get<ex::Let>(map.f.body->node);
  EXPECT_EQ(let.bindings[0].value->type.str(), "i32");
  EXPECT_EQ(let.bindings[1].value->type.str(), "f32");
  EXPECT_EQ(let.bindings[2].value->type.str(), "i64");
  const auto& proj = std::get<ex::Proj>(let.body->node);
  EXPECT_EQ(proj.tuple->type.str(), "(tuple f32 i64)");
}

TEST(CheckTypes, ArrayReadsAndIndexForms) {
  Program p = parse_and_check(
      "(program ((m (array (tuple i32 bool) 2)) (s (array u16 0)))"
      "  (generate (shape m) (lambda ((i (ix 2)))"
      "    (tuple (! m i) (!! m (to-index (shape m) i)) (the s) (size m) (from-index (shape m) 0)"
      "           (ignore 3) (trace \"t\" 1u8)))))");
  EXPECT_EQ(p.result.str(),
            "(array (tuple (tuple i32 bool) (tuple i32 bool) u16 i64 (ix 2) (ix 3) u8) 2)");
}

TEST(CheckTypes, ArrayFunctionsOfAwhileSeeOnlyArrays) {
  Program p = parse_and_check("(program ((xs (array f64 1)))"
                              "  (awhile (lambda ((s (tuple (array i64 0) (array f64 1)))) (map "
                              "(lambda ((n i64)) (< n 3)) (aproj 0 s)))"
                              "          (lambda ((s (tuple (array i64 0) (array f64 1))))"
                              "            (alet ((n (aproj 0 s))) (atuple (map (lambda ((k i64)) "
                              "(+ k 1)) n) (aproj 1 s))))"
                              "          (atuple (unit 0) xs)))");
  EXPECT_EQ(p.result.str(), "(tuple (array i64 0) (array f64 1))");
}

} // namespace
} // namespace strata

namespace strata {
namespace {

// A program never given to check_program is a usage error wherever it is run
// (the interpreter, and every engine through build_kernel_graph), not a crash.
TEST(RequireChecked, UncheckedProgramsAreUsageErrors) {
  Program p = parse_program("(program ((xs (array f32 1)))\n"
                            "  (map (lambda ((x f32)) (* x 2.0f32)) xs))",
                            "unchecked.strata");
  auto expect_usage = [](const auto& run) {
    try {
      run();
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage);
      EXPECT_EQ(e.headline(), "unchecked.strata:1:1: error: the program was not type-checked: "
                              "call check_program first");
    }
  };
  expect_usage([&] { interpret(p, {test::array_of<float>({1})}); });
  expect_usage([&] { build_kernel_graph(p, FusionOptions{}); });
  check_program(p);
  EXPECT_EQ(test::values_of<float>(interpret(p, {test::array_of<float>({1})}).at(0)),
            std::vector<float>{2});
}

} // namespace
} // namespace strata
