// Functions (`define`, `adefine`, `let`-bound lambdas), inferred lambda
// parameter types, functions passed by name and the everyday forms
// (docs/language.md, Functions and Everyday forms): they read and print back
// as written, `strata fmt` keeps them and their comments, the checker expands
// them, and every misuse is one located error naming the call and the
// definition. Their values on every engine are in tests/conformance_test.cpp.
#include <gtest/gtest.h>

#include <string>

#include "core/check.h"
#include "core/format.h"
#include "core/parser.h"
#include "core/printer.h"
#include "interpreter/interpreter.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {

const char* kProgram = R"(; helpers
(define (sq x) (* x x))

(define (axpy (a f64) x y) (+ (* a x) y)) ; a typed and two inferred parameters

(adefine (norm2 (xs (array f64 1))) (fold + 0.0 (map sq xs)))

(adefine (scale (xs (array f64 1)) (k f64)) (map (lambda (x) (axpy k x 0.0)) xs))

(program ((xs (array f64 1)))
  ; every kind of call
  (atuple
    (norm2 xs)
    (scale xs 2.0)
    (zipwith (lambda (a b c) (axpy a b c)) xs xs xs)
    (map (lambda (x) (let ((f (lambda (y) (* y x)))) (f (f 2.0)))) xs)
    (sum (reverse (take 2 xs)))))
)";

std::vector<Array> run_text(const std::string& text, const std::vector<Array>& inputs) {
  Program p = parse_program(text, "f.strata");
  check_program(p);
  return interpret(p, inputs);
}

// The error `text` raises when read and checked: its kind and whole line.
Error error_of(const std::string& text) {
  try {
    Program p = parse_program(text, "f.strata");
    check_program(p);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error for: " << text;
  return Error(ErrorKind::Usage, "none");
}

void expect_error(const std::string& text, ErrorKind kind, const std::string& line) {
  Error e = error_of(text);
  EXPECT_EQ(e.kind(), kind) << e.what();
  EXPECT_EQ(e.headline(), line);
}

TEST(Functions, ReadAndPrintAsWritten) {
  Program p = parse_program(kProgram, "f.strata");
  ASSERT_EQ(p.defines.size(), 4u);
  EXPECT_EQ(p.defines[0].name, "sq");
  EXPECT_FALSE(p.defines[0].params[0].typed);
  EXPECT_TRUE(p.defines[1].params[0].typed);
  EXPECT_NE(p.defines[2].array_body, nullptr);
  std::string printed = print_program(p);
  EXPECT_NE(printed.find("(define (sq x) (* x x))"), std::string::npos) << printed;
  EXPECT_NE(printed.find("(map sq xs)"), std::string::npos) << printed;
  EXPECT_NE(printed.find("(lambda (a b c) (axpy a b c))"), std::string::npos) << printed;
  EXPECT_NE(printed.find("(sum (reverse (take 2 xs)))"), std::string::npos) << printed;
  Program again = parse_program(printed, "f.strata");
  EXPECT_TRUE(equal(again, p));
  EXPECT_EQ(print_program(again), printed);
  // fmt keeps the definitions, the calls and every comment.
  std::string formatted = format_program(kProgram, "f.strata");
  EXPECT_TRUE(equal(parse_program(formatted, "f.strata"), p));
  for (const char* comment :
       {"; helpers", "; a typed and two inferred parameters", "; every kind of call"})
    EXPECT_NE(formatted.find(comment), std::string::npos) << formatted;
  EXPECT_EQ(format_program(formatted, "f.strata"), formatted);
}

TEST(Functions, CheckingExpandsEveryCallAndInfersEveryType) {
  Program p = parse_program(kProgram, "f.strata");
  check_program(p);
  // The checked program's body holds no call, and prints, reads and checks again.
  std::string printed = print_program(p);
  EXPECT_EQ(printed.find("(norm2 xs)"), std::string::npos) << printed;
  EXPECT_EQ(printed.find("(sum "), std::string::npos) << printed;
  Program q = parse_program(printed, "f.strata");
  check_program(q);
  std::vector<Array> in{array_of<double>({1.0, 2.0, 3.0})};
  std::vector<Array> r = run_text(kProgram, in);
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(values_of<double>(r[0]), std::vector<double>({14.0}));
  EXPECT_EQ(values_of<double>(r[1]), std::vector<double>({2.0, 4.0, 6.0}));
  EXPECT_EQ(values_of<double>(r[2]), std::vector<double>({2.0, 6.0, 12.0}));
  EXPECT_EQ(values_of<double>(r[3]), std::vector<double>({2.0, 8.0, 18.0}));
  EXPECT_EQ(values_of<double>(r[4]), std::vector<double>({3.0}));
  // The same results from the expanded program.
  std::vector<Array> r2 = interpret(q, in);
  for (size_t i = 0; i < r.size(); ++i)
    EXPECT_EQ(values_of<double>(r2[i]), values_of<double>(r[i]));
}

TEST(Functions, AParameterWithoutATypeTakesTheExpectedOne) {
  Program p =
      parse_program("(program ((xs (array i32 1))) (map (lambda (x) (+ x 1i32)) xs))", "f.strata");
  check_program(p);
  const auto& m = std::get<ac::Map>(p.body->node);
  EXPECT_FALSE(m.f.params[0].typed);
  EXPECT_EQ(m.f.params[0].type, Type::scalar(ScalarKind::I32));
  // Printed as written: still without the type.
  EXPECT_EQ(print_program(p),
            "(program ((xs (array i32 1)))\n  (map (lambda (x) (+ x 1i32)) xs))\n");
}

TEST(FunctionErrors, NameTheCallAndTheDefinition) {
  // A type error inside a body: at the body's position, in the function called at the call.
  expect_error("(define (f x) (+ x 1))\n(program () (unit (f 2.5)))", ErrorKind::Type,
               "f.strata:1:15: error: `+` expects operands of the same type, found f64 and i64; "
               "write the literal as 1.0, "
               "in `f` called at f.strata:2:19");
  // An argument of the wrong type for a written parameter type.
  expect_error("(define (f (x f32)) x)\n(program () (unit (f 2.5)))", ErrorKind::Type,
               "f.strata:2:22: error: argument `x` of `f` (defined at f.strata:1:1): expected "
               "f32, found f64");
  // A run-time error inside a body names the call too (every engine:
  // tests/runtime_errors_engines_test.cpp).
  try {
    run_text("(define (d a b) (quot a b))\n(program () (unit (d 1 0)))", {});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.headline(), "f.strata:1:17: error: division by zero in `quot` (1 quot 0), in `d` "
                            "called at f.strata:2:19");
  }
}

TEST(FunctionErrors, EachMisuseIsOneLocatedError) {
  struct Case {
    std::string text;
    ErrorKind kind;
    std::string line;
  };
  const std::vector<Case> cases = {
      {"(define (f x) (f x))\n(program () (unit 1))", ErrorKind::Syntax,
       "f.strata:1:15: error: `f` calls itself: a function cannot be recursive (nor use its own "
       "name)"},
      {"(define (f x) (g x))\n(define (g x) x)\n(program () (unit 1))", ErrorKind::Syntax,
       "f.strata:1:15: error: `g` is defined later, at f.strata:2:1: a function is seen only by "
       "the definitions after it and the program; define it before its first use"},
      {"(define (f x) (nosuch x))\n(program () (unit 1))", ErrorKind::Syntax,
       "f.strata:1:15: error: unknown form `nosuch`"},
      {"(define (f x y) x)\n(program () (unit (f 1)))", ErrorKind::Syntax,
       "f.strata:2:19: error: `f` takes 2 arguments (defined at f.strata:1:1), found 1"},
      {"(adefine (f (a (array i64 1))) a)\n(program () (unit (f 1)))", ErrorKind::Syntax,
       "f.strata:2:19: error: `f` is an array function (defined at f.strata:1:1), but a scalar "
       "expression is expected here"},
      {"(define (map x) x)\n(program () (unit 1))", ErrorKind::Syntax,
       "f.strata:1:10: error: `map` is a form of the language; choose another name"},
      {"(define (f x) x)\n(define (f y) y)\n(program () (unit 1))", ErrorKind::Syntax,
       "f.strata:2:10: error: `f` is already defined at f.strata:1:1"},
      {"(define (f (v (array i64 1))) 1)\n(program () (unit 1))", ErrorKind::Syntax,
       "f.strata:1:12: error: parameter `v` of the scalar function `f` is an array: use "
       "`adefine` for a function of arrays"},
      {"(define (f x) x)", ErrorKind::Syntax,
       "f.strata:1:1: error: expected the program `(program ((x T) ...) body)` after the "
       "definitions, found none"},
      {"(program () (unit (let ((f (lambda (x) x))) 1)))", ErrorKind::Type,
       "f.strata:1:37: error: cannot infer the type of parameter `x` of `f`: it is never called; "
       "write `(x T)`"},
      {"(program () (unit (let ((k 1) (f (lambda (x) (+ x k))) (k 2)) (f 1))))", ErrorKind::Type,
       "f.strata:1:63: error: `f` (defined at f.strata:1:31) reads `k`, which is bound again "
       "before this call; rename one of them"},
      {"(program () (unit (let ((f (lambda (x) (f x)))) 1)))", ErrorKind::Syntax,
       "f.strata:1:40: error: `f` calls itself: a function cannot be recursive (nor use its own "
       "name)"},
      {"(program ((xs (array i64 1))) (map nosuch xs))", ErrorKind::Syntax,
       "f.strata:1:36: error: expected a function `(lambda (x ...) body)`, a primitive or a "
       "scalar function's name, found `nosuch`"},
      {"(program ((xs (array f64 1))) (fold + 0 xs))", ErrorKind::Type,
       "f.strata:1:39: error: fold seed: expected f64, found i64; write the literal as 0.0"},
      {"(program ((xs (array bool 1))) (sum xs))", ErrorKind::Type,
       "f.strata:1:32: error: `sum`: expected an array of numbers, found (array bool 1)"},
      {"(program ((xs (array i64 1))) (transpose xs))", ErrorKind::Type,
       "f.strata:1:31: error: `transpose`: expected an array of rank 2, found (array i64 1)"},
      {"(program ((xs (array i64 1))) (take 1.5 xs))", ErrorKind::Type,
       "f.strata:1:31: error: `take`: the count must be i64, found f64"},
      {"(program ((xs (array i64 1))) (zipwith (lambda (a b c) a) xs xs (fill (ix 2 2) 1)))",
       ErrorKind::Type,
       "f.strata:1:31: error: `zipwith`: operands must have the same rank, found (array i64 1) "
       "and (array i64 2)"},
      {"(program ((xs (array i64 1))) (zipwith (lambda (a b) a) xs xs xs))", ErrorKind::Type,
       "f.strata:1:40: error: zipwith: expected a function of 3 parameter(s), found 2"},
      {"(program ((xs (array i64 1))) (++ xs (fill (ix 2) 1.0)))", ErrorKind::Type,
       "f.strata:1:31: error: `++`: both arrays must have the same type, found (array i64 1) and "
       "(array f64 1)"},
      {"(program () (unit (for 3 0 (lambda ((i i32) acc) acc))))", ErrorKind::Type,
       "f.strata:1:37: error: for: parameter `i` should have type i64, found i32"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    expect_error(c.text, c.kind, c.line);
  }
}

TEST(FunctionErrors, ARuntimeErrorOfAnEverydayFormNamesIt) {
  try {
    run_text("(program ((xs (array i64 1))) (gather (use (array i64 (2) 0 5)) xs))",
             {array_of<int64_t>({1, 2, 3})});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Bounds);
    EXPECT_EQ(e.headline(), "f.strata:1:31: error: index (5) out of bounds for shape (3) in "
                            "`gather` of `xs`, in `gather` called at f.strata:1:31");
  }
}

} // namespace
} // namespace strata::test
