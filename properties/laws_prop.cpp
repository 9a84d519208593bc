// Algebraic laws of the language, checked on the oracle over generated arrays
// and functions: each law is two programs that must both fail or give
// bitwise-identical results. Functions come from the program builder
// (oracle/gen/builder.h), so they use every scalar form and primitive.
#include <gtest/gtest.h>

#include "core/check.h"
#include "core/parser.h"
#include "interpreter/interpreter.h"
#include "oracle/gen/builder.h"
#include "oracle/gen/values.h"
#include "oracle/generator_rc.h"
#include "properties/property.h"

namespace strata {
namespace {

// A builder over a RapidCheck-generated (and shrinkable) tape of choices.
struct Kit {
  gen::Choices choices;
  gen::Builder b;
  Kit() : choices(*gen_choice_tape()), b(choices, limits()) {}
  static gen::Limits limits() {
    gen::Limits l;
    l.exp_depth = 2;
    // Total functions: an error in an element that one side never demands
    // (the inner backpermute of a composition is computed strictly) would
    // make the two sides differ legitimately.
    l.error_percent = 0;
    l.defines = false; // the laws write their programs' text themselves
    return l;
  }
  Array input(const Type& elem, const Shape& shape) {
    return gen::random_array(choices, elem, shape);
  }
  Shape shape(int rank, int min_extent = 0) {
    Shape sh = gen::random_shape(choices, rank, 4);
    for (int64_t& d : sh)
      d = std::max<int64_t>(d, min_extent);
    return sh;
  }
};

struct Run {
  bool failed = false;
  std::string error;
  std::vector<Array> results;
};

Run run(const std::string& text, const std::vector<Array>& inputs) {
  Run r;
  Program p = parse_program(text, "law.strata");
  check_program(p); // a law program that does not check is a bug in this file
  try {
    r.results = interpret(p, inputs);
  } catch (const Error& e) {
    r.failed = true;
    r.error = e.what();
  }
  return r;
}

void assert_same(const std::string& lhs, const std::string& rhs, const std::vector<Array>& in) {
  Run a = run(lhs, in), b = run(rhs, in);
  RC_LOG() << "lhs: " << lhs << "\nrhs: " << rhs << "\n";
  RC_ASSERT(a.failed == b.failed);
  if (a.failed) return;
  RC_ASSERT(a.results.size() == b.results.size());
  for (size_t i = 0; i < a.results.size(); ++i)
    RC_ASSERT(identical(a.results[i], b.results[i]));
}

std::string param(const std::string& name, const Type& t) {
  return "(" + name + " " + t.str() + ")";
}

TEST(Laws, MapFusion) {
  prop::check(500, [] {
    Kit k;
    Type t1 = k.b.elem_type(), t2 = k.b.elem_type(), t3 = k.b.elem_type();
    int r = k.b.rank();
    auto f = k.b.lambda_parts({t1}, t2, 2), g = k.b.lambda_parts({t2}, t3, 2);
    std::string head = "(program (" + param("xs", Type::array(t1, r)) + ") ";
    std::string lhs = head + "(map " + g.text + " (map " + f.text + " xs)))";
    std::string rhs = head + "(map (lambda ((" + f.names[0] + " " + t1.str() + ")) (let ((" +
                      g.names[0] + " " + f.body + ")) " + g.body + ")) xs))";
    assert_same(lhs, rhs, {k.input(t1, k.shape(r))});
  });
}

TEST(Laws, FoldOfConcatenation) {
  prop::check(500, [] {
    Kit k;
    ScalarKind e = k.b.scalar_kind();
    Type t = Type::scalar(e);
    std::string op = k.b.reduction_op(e), z = k.b.literal(e);
    std::string head =
        "(program (" + param("xs", Type::array(t, 1)) + " " + param("ys", Type::array(t, 1)) + ") ";
    std::string concat = "(generate (ix (+ (size xs) (size ys))) (lambda ((i (ix 1))) (if (< "
                         "(proj 0 i) (size xs)) (! xs i) (! ys (ix (- (proj 0 i) (size xs)))))))";
    std::string lhs = head + "(fold " + op + " " + z + " " + concat + "))";
    std::string rhs =
        head + "(alet ((a (fold " + op + " " + z + " xs))) (fold " + op + " (the a) ys)))";
    assert_same(lhs, rhs, {k.input(t, k.shape(1)), k.input(t, k.shape(1))});
  });
}

TEST(Laws, LastElementOfScanlIsFold) {
  prop::check(500, [] {
    Kit k;
    ScalarKind e = k.b.scalar_kind();
    Type t = Type::scalar(e);
    int r = k.b.rank(1);
    std::string op = k.b.reduction_op(e), z = k.b.literal(e);
    std::string head = "(program (" + param("xs", Type::array(t, r)) + ") ";
    std::string spec = "(spec";
    for (int d = 0; d + 1 < r; ++d)
      spec += " all";
    spec += " (- (proj " + std::to_string(r - 1) + " (shape s)) 1))";
    std::string lhs = head + "(alet ((s (scanl " + op + " " + z + " xs))) (slice s " + spec + ")))";
    std::string rhs = head + "(fold " + op + " " + z + " xs))";
    assert_same(lhs, rhs, {k.input(t, k.shape(r))});
  });
}

TEST(Laws, PermuteWithIdentityIndexIsZipWith) {
  prop::check(500, [] {
    Kit k;
    Type t = k.b.elem_type();
    int r = k.b.rank();
    auto comb = k.b.lambda_parts({t, t}, t, 2); // (comb new old); need not be associative here
    Type arr = Type::array(t, r);
    std::string head = "(program (" + param("defs", arr) + " " + param("src", arr) + ") ";
    std::string lhs = head + "(permute " + comb.text + " defs (lambda ((i " + Type::index(r).str() +
                      ")) i) src))";
    std::string rhs = head + "(zipwith (lambda ((" + comb.names[1] + " " + t.str() + ") (" +
                      comb.names[0] + " " + t.str() + ")) " + comb.body + ") defs src))";
    Shape sh = k.shape(r);
    assert_same(lhs, rhs, {k.input(t, sh), k.input(t, sh)});
  });
}

TEST(Laws, ReshapeRoundTrip) {
  prop::check(500, [] {
    Kit k;
    Type t = k.b.elem_type();
    int r = k.b.rank(), r2 = k.b.rank(1);
    int at = k.choices.below(r2);
    std::string sh = "(ix";
    for (int d = 0; d < r2; ++d)
      sh += d == at ? " (size xs)" : " 1";
    sh += ")";
    std::string head = "(program (" + param("xs", Type::array(t, r)) + ") ";
    std::string lhs = head + "(alet ((y (reshape " + sh + " xs))) (reshape (shape xs) y)))";
    assert_same(lhs, head + "xs)", {k.input(t, k.shape(r))});
  });
}

TEST(Laws, SliceOfReplicate) {
  prop::check(500, [] {
    Kit k;
    Type t = k.b.elem_type();
    int r = k.choices.range(0, 2);
    int at = k.choices.range(0, r); // position of the new dimension
    int extent = k.choices.range(1, 4), j = k.choices.below(extent);
    std::string rep = "(spec", sl = "(spec";
    for (int d = 0; d <= r; ++d) {
      rep += d == at ? " " + std::to_string(extent) : " all";
      sl += d == at ? " " + std::to_string(j) : " all";
    }
    std::string head = "(program (" + param("xs", Type::array(t, r)) + ") ";
    std::string lhs = head + "(slice (replicate " + rep + ") xs) " + sl + ")))";
    assert_same(lhs, head + "xs)", {k.input(t, k.shape(r))});
  });
}

TEST(Laws, BackpermuteComposition) {
  prop::check(500, [] {
    Kit k;
    Type t = k.b.elem_type();
    int r = k.b.rank(), r1 = k.b.rank(), r2 = k.b.rank();
    Shape sh1 = k.shape(r1), sh2 = k.shape(r2, 1);
    auto ix_text = [](const Shape& sh) {
      std::string s = "(ix";
      for (int64_t d : sh)
        s += " " + std::to_string(d);
      return s + ")";
    };
    // f: (ix r1) -> (ix r2) within sh2; g: (ix r2) -> (ix r) within the shape of xs
    gen::ExpScope fs, gs;
    fs.vars.push_back({"i", Type::index(r1)});
    gs.vars.push_back({"j", Type::index(r2)});
    std::string f = "(ix", g = "(ix";
    for (int d = 0; d < r2; ++d)
      f += " (mod " + k.b.exp(Type::scalar(ScalarKind::I64), fs, 2) + " " +
           std::to_string(sh2[size_t(d)]) + ")";
    for (int d = 0; d < r; ++d)
      g += " (mod " + k.b.exp(Type::scalar(ScalarKind::I64), gs, 2) + " (proj " +
           std::to_string(d) + " (shape xs)))";
    f += ")";
    g += ")";
    std::string i1 = Type::index(r1).str(), i2 = Type::index(r2).str();
    std::string head = "(program (" + param("xs", Type::array(t, r)) + ") ";
    std::string lhs = head + "(alet ((y (backpermute " + ix_text(sh2) + " (lambda ((j " + i2 +
                      ")) " + g + ") xs))) (backpermute " + ix_text(sh1) + " (lambda ((i " + i1 +
                      ")) " + f + ") y)))";
    std::string rhs = head + "(backpermute " + ix_text(sh1) + " (lambda ((i " + i1 +
                      ")) (let ((j " + f + ")) " + g + ")) xs))";
    assert_same(lhs, rhs, {k.input(t, k.shape(r, 1))});
  });
}

} // namespace
} // namespace strata
