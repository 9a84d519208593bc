// The printer and structural equality: canonical layout, print-parse round
// trips (every form, the docs/language.md examples, bitwise float literals) and
// idempotent printing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include "core/parser.h"
#include "core/printer.h"

namespace strata {
namespace {

// The five programs of docs/language.md, Examples of the text form, verbatim.
const char* const kExamples[] = {
    R"strata(    ; histogram of byte values into 8 bins of 32; negative keys are dropped
    (program ((keys (array i32 1)))
      (permute (lambda ((new i64) (old i64)) (+ new old))
               (fill (ix 8) 0)
               (lambda ((i (ix 1)))
                 (let ((k (! keys i)))
                   (if (< k 0i32) (ignore 1) (ix (cast i64 (quot k 32i32))))))
               (map (lambda ((k i32)) 1) keys))))strata",
    R"strata(    ; matrix-vector product: replicate the vector over the rows, multiply, fold each row
    (program ((m (array f64 2)) (v (array f64 1)))
      (fold (lambda ((a f64) (b f64)) (+ a b)) 0.0
            (zipwith (lambda ((x f64) (y f64)) (* x y))
                     m
                     (replicate (spec (proj 0 (shape m)) all) v)))))strata",
    R"strata(    ; 3x3 Laplacian with a clamped border
    (program ((img (array f32 2)))
      (stencil (3 3) clamp
        (lambda ((nb (window f32 2)))
          (- (+ (+ (at nb -1 0) (at nb 1 0)) (+ (at nb 0 -1) (at nb 0 1)))
             (* 4f32 (at nb 0 0))))
        img)))strata",
    R"strata(    ; halve every element until the largest is below 1 (array-level loop)
    (program ((xs (array f64 1)))
      (awhile (lambda ((s (array f64 1)))
                (map (lambda ((m f64)) (>= m 1.0))
                     (fold1 (lambda ((a f64) (b f64)) (max a b))
                            (reshape (ix (size s)) s))))
              (lambda ((s (array f64 1))) (map (lambda ((x f64)) (/ x 2.0)) s))
              xs)))strata",
    R"strata(    ; a literal array of (i32, f32) pairs, projected to two results
    (program ()
      (alet ((ps (use (array (tuple i32 f32) (3) (1 0.5) (2 1.5) (3 2.5)))))
        (atuple (map (lambda ((p (tuple i32 f32))) (proj 0 p)) ps)
                (map (lambda ((p (tuple i32 f32))) (proj 1 p)) ps)))))strata",
};

// A program that uses every form of docs/language.md, Exp and Acc (not well
// typed everywhere: the printer does not need it to be).
const char* const kEveryForm = R"strata(
(program ((xs (array f32 1)) (m (array f32 2)) (ks (array i32 1)) (ss (array i64 1)))
  (alet ((a (map (lambda ((x f32))
                   (let ((y (* x 2f32)) (z (neg y))) (if (> z 0f32) z (abs y)))) xs))
         (b (zipwith (lambda ((x f32) (y f32)) (max x y)) a xs))
         (c (fold (lambda ((p f32) (q f32)) (+ p q)) 0f32 m))
         (d (fold1 (lambda ((p f32) (q f32)) (min p q)) m))
         (e (foldseg (lambda ((p f32) (q f32)) (+ p q)) -0.0f32 xs ss))
         (f (scanl (lambda ((p f32) (q f32)) (+ p q)) 0f32 xs))
         (g (scanl1 (lambda ((p f32) (q f32)) (+ p q)) xs))
         (h (scanr (lambda ((p f32) (q f32)) (+ p q)) inff32 xs))
         (i (scanr1 (lambda ((p f32) (q f32)) (+ p q)) xs))
         (j (scanl' (lambda ((p f32) (q f32)) (+ p q)) nanf32 xs))
         (k (permute (lambda ((n i64) (o i64)) (+ n o)) (fill (ix 8) 0)
              (lambda ((t (ix 1)))
                (let ((v (! ks t))) (if (< v 0i32) (ignore 1) (ix (cast i64 v)))))
              (map (lambda ((v i32)) 1) ks)))
         (l (backpermute (ix (size xs))
              (lambda ((t (ix 1))) (ix (- (- (size xs) 1) (proj 0 t)))) xs))
         (n (reshape (ix 2 (quot (size xs) 2)) xs))
         (o (replicate (spec 3 all) xs))
         (p (slice m (spec all 0)))
         (q (stencil (3 3) (constant 0f32)
              (lambda ((nb (window f32 2))) (+ (at nb -1 0) (at nb 1 1))) m))
         (r (stencil (3) mirror (lambda ((nb (window f32 1))) (at nb 0)) xs))
         (s (stencil (5) wrap (lambda ((nb (window f32 1))) (at nb -2)) xs))
         (t (stencil (1) clamp (lambda ((nb (window f32 1))) (at nb 0)) xs))
         (u (generate (ix 3)
              (lambda ((i (ix 1))) (to-index (ix 3) (from-index (ix 3) (proj 0 i))))))
         (v (unit (tuple 1 (the c) (!! xs 0) true -9223372036854775808 18446744073709551615u64)))
         (w (use (array (tuple i32 (tuple f64 bool)) (2) (1 (-0.0 true)) (-2 (1e300 false)))))
         (w2 (use (array f32 () 5)))
         (x (awhile (lambda ((st (array f32 1)))
                      (map (lambda ((x f32)) (> x 1f32))
                           (fold1 (lambda ((p f32) (q f32)) (max p q)) st)))
                    (lambda ((st (array f32 1))) (map (lambda ((x f32)) (/ x 2f32)) st))
                    xs))
         (y (atrace "x \"after\" \\ \n\tdone" x))
         (z (acond (> (size xs) 0) a (aproj 0 (atuple xs m)))))
    (atuple a b c d e (aproj 1 (atuple f g)) h i j k l n o p q r s t u v w w2 x y z
      (generate (shape xs)
        (lambda ((i (ix 1)))
          (trace "t"
            (while (lambda ((s (tuple i64 f32))) (< (proj 0 s) 10))
                   (lambda ((s (tuple i64 f32))) (tuple (+ (proj 0 s) 1) (sqrt (proj 1 s))))
                   (tuple (proj 0 i) (cast f32 (! xs i))))))))))
)strata";

Program parse(std::string_view text) {
  return parse_program(text, "test.strata");
}

// parse -> print -> parse gives an equal program, and printing is idempotent.
std::string expect_round_trip(std::string_view text) {
  Program p = parse(text);
  std::string printed = print_program(p);
  Program q = parse(printed);
  EXPECT_TRUE(equal(p, q)) << printed;
  EXPECT_EQ(print_program(q), printed);
  return printed;
}

size_t longest_line(const std::string& text) {
  std::istringstream in(text);
  size_t longest = 0;
  for (std::string line; std::getline(in, line);)
    longest = std::max(longest, line.size());
  return longest;
}

// ------------------------------------------------------------- round trips

TEST(PrinterRoundTrip, LanguageExamples) {
  for (const char* text : kExamples) {
    SCOPED_TRACE(text);
    expect_round_trip(text);
  }
}

TEST(PrinterRoundTrip, EveryForm) {
  std::string printed = expect_round_trip(kEveryForm);
  EXPECT_LE(longest_line(printed), 100u) << printed;
}

TEST(PrinterRoundTrip, ProgramBuiltInCpp) {
  Type f32 = Type::scalar(ScalarKind::F32);
  auto x = make_exp(ex::Var{"x"});
  auto body = make_exp(ex::PrimApp{Prim::Add, {x, make_exp(ex::Const{Scalar::make(1.5f)})}});
  Program p;
  p.params = {Param{"xs", Type::array(f32, 1), {}}};
  p.body = make_acc(ac::Map{Lambda{{Param{"x", f32, {}}}, body, {}}, make_acc(ac::Var{"xs"})});
  std::string printed = print_program(p);
  EXPECT_EQ(printed, "(program ((xs (array f32 1)))\n"
                     "  (map (lambda ((x f32)) (+ x 1.5f32)) xs))\n");
  EXPECT_TRUE(equal(p, parse(printed)));
}

TEST(PrinterRoundTrip, DeepNestingWithinTheLimit) {
  int n = kMaxNesting - 10;
  std::string text = "(program ((xs (array i64 1))) (map (lambda ((x i64)) ";
  for (int i = 0; i < n; ++i)
    text += "(+ 1 ";
  text += "x" + std::string(size_t(n), ')') + ") xs))";
  expect_round_trip(text);
}

// ------------------------------------------------------------------ layout

TEST(PrinterLayout, ShortFormsStayOnOneLine) {
  EXPECT_EQ(print_exp(*parse_exp("(+  1\n  (* x 2.5))")), "(+ 1 (* x 2.5))");
  EXPECT_EQ(print_exp(*parse_exp("(let ((a 1) (b 2)) (tuple a b))")),
            "(let ((a 1) (b 2)) (tuple a b))");
  EXPECT_EQ(print_acc(*parse_acc("(map (lambda ((x f32)) (neg x)) xs)")),
            "(map (lambda ((x f32)) (neg x)) xs)");
  EXPECT_EQ(print_acc(*parse_acc("(use (array f32 () 5))")), "(use (array f32 () 5))");
  EXPECT_EQ(print_acc(*parse_acc(
                "(stencil (3) (constant 0f32) (lambda ((nb (window f32 1))) (at nb 0)) a)")),
            "(stencil (3) (constant 0.0f32) (lambda ((nb (window f32 1))) (at nb 0)) a)");
}

TEST(PrinterLayout, LanguageExamplesGolden) {
  EXPECT_EQ(print_program(parse(kExamples[0])),
            "(program ((keys (array i32 1)))\n"
            "  (permute\n"
            "    (lambda ((new i64) (old i64)) (+ new old))\n"
            "    (fill (ix 8) 0)\n"
            "    (lambda ((i (ix 1)))\n"
            "      (let ((k (! keys i))) (if (< k 0i32) (ignore 1) (ix (cast i64 (quot k "
            "32i32))))))\n"
            "    (map (lambda ((k i32)) 1) keys)))\n");
  EXPECT_EQ(print_program(parse(kExamples[2])),
            "(program ((img (array f32 2)))\n"
            "  (stencil (3 3) clamp\n"
            "    (lambda ((nb (window f32 2)))\n"
            "      (- (+ (+ (at nb -1 0) (at nb 1 0)) (+ (at nb 0 -1) (at nb 0 1))) (* 4.0f32 (at "
            "nb 0 0))))\n"
            "    img))\n");
  EXPECT_EQ(print_program(parse(kExamples[4])),
            "(program ()\n"
            "  (alet ((ps (use (array (tuple i32 f32) (3) (1 0.5) (2 1.5) (3 2.5)))))\n"
            "    (atuple\n"
            "      (map (lambda ((p (tuple i32 f32))) (proj 0 p)) ps)\n"
            "      (map (lambda ((p (tuple i32 f32))) (proj 1 p)) ps))))\n");
}

TEST(PrinterLayout, NestedCollectivesBreakAndLongFormsWrap) {
  EXPECT_EQ(print_acc(*parse_acc("(map (lambda ((x f32)) x) (map (lambda ((y f32)) y) xs))")),
            "(map\n  (lambda ((x f32)) x)\n  (map (lambda ((y f32)) y) xs))");
  std::string sum = "(+ aaaaaaaaaa bbbbbbbbbb)";
  for (int i = 0; i < 6; ++i)
    sum = "(* " + sum + " " + sum + ")";
  std::string printed = print_exp(*parse_exp(sum));
  EXPECT_NE(printed.find('\n'), std::string::npos);
  EXPECT_LE(longest_line(printed), 100u) << printed;
  EXPECT_TRUE(equal(*parse_exp(sum), *parse_exp(printed)));
}

TEST(PrinterLayout, LongUseLiteralsWrapTheirValues) {
  std::string text = "(use (array i64 (300)";
  for (int i = 0; i < 300; ++i)
    text += " " + std::to_string(i * 1000003);
  text += "))";
  AccPtr a = parse_acc(text);
  std::string printed = print_acc(*a);
  EXPECT_LE(longest_line(printed), 100u);
  EXPECT_GT(std::count(printed.begin(), printed.end(), '\n'), 20);
  EXPECT_TRUE(equal(*a, *parse_acc(printed)));
}

// ----------------------------------------------------------------- literals

uint64_t splitmix(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

template <class T> void expect_literal_round_trip(T v) {
  Scalar s = Scalar::make(v);
  std::string text = print_exp(*make_exp(ex::Const{s}));
  Scalar back = std::get<ex::Const>(parse_exp(text)->node).value;
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(v)) {
      EXPECT_TRUE(std::isnan(back.get<T>())) << text;
      EXPECT_EQ(back.kind(), s.kind()) << text;
      return;
    }
  }
  EXPECT_TRUE(back.identical(s)) << text;
}

template <class T> void expect_extremes_round_trip() {
  using L = std::numeric_limits<T>;
  for (T v : {L::min(), L::max(), L::lowest(), T(0), T(1)})
    expect_literal_round_trip(v);
}

TEST(PrinterLiterals, Formats) {
  auto print = [](Scalar s) { return print_exp(*make_exp(ex::Const{s})); };
  EXPECT_EQ(print(Scalar::make<int64_t>(std::numeric_limits<int64_t>::min())),
            "-9223372036854775808");
  EXPECT_EQ(print(Scalar::make<uint64_t>(std::numeric_limits<uint64_t>::max())),
            "18446744073709551615u64");
  EXPECT_EQ(print(Scalar::make(-0.0)), "-0.0");
  EXPECT_EQ(print(Scalar::make(std::numeric_limits<float>::quiet_NaN())), "nanf32");
  EXPECT_EQ(print(Scalar::make(std::numeric_limits<float>::infinity())), "inff32");
  EXPECT_EQ(print(Scalar::make(-std::numeric_limits<double>::infinity())), "-inff64");
  EXPECT_EQ(print(Scalar::make<int8_t>(-3)), "-3i8");
  EXPECT_EQ(print(Scalar::make(true)), "true");
}

TEST(PrinterLiterals, IntegerExtremesRoundTrip) {
  expect_extremes_round_trip<int8_t>();
  expect_extremes_round_trip<int16_t>();
  expect_extremes_round_trip<int32_t>();
  expect_extremes_round_trip<int64_t>();
  expect_extremes_round_trip<uint8_t>();
  expect_extremes_round_trip<uint16_t>();
  expect_extremes_round_trip<uint32_t>();
  expect_extremes_round_trip<uint64_t>();
  expect_literal_round_trip(true);
  expect_literal_round_trip(false);
}

TEST(PrinterLiterals, FloatsRoundTripBitwise) {
  expect_extremes_round_trip<float>();
  expect_extremes_round_trip<double>();
  for (double d :
       {-0.0, 0.1, 1e300, 1e-300, 5e-324, std::numeric_limits<double>::epsilon(),
        std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
        std::numeric_limits<double>::quiet_NaN(), 123456789012345678.0})
    expect_literal_round_trip(d);
  for (float f : {-0.0f, 0.1f, 1e30f, 1e-45f, 16777217.0f, std::numeric_limits<float>::infinity(),
                  -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()})
    expect_literal_round_trip(f);
  uint64_t state = 42;
  for (int i = 0; i < 20000; ++i) {
    uint64_t bits = splitmix(state);
    double d;
    float f;
    auto low = uint32_t(bits);
    std::memcpy(&d, &bits, sizeof d);
    std::memcpy(&f, &low, sizeof f);
    expect_literal_round_trip(d);
    expect_literal_round_trip(f);
  }
}

TEST(PrinterLiterals, UseValuesRoundTripBitwise) {
  Type elem = Type::tuple({Type::scalar(ScalarKind::F32), Type::scalar(ScalarKind::F64),
                           Type::scalar(ScalarKind::U64), Type::scalar(ScalarKind::I8)});
  Array a = Array::allocate(elem, {500});
  uint64_t state = 7;
  for (int64_t i = 0; i < a.size(); ++i) {
    uint64_t bits = splitmix(state);
    float f;
    double d;
    auto low = uint32_t(bits);
    std::memcpy(&f, &low, sizeof f);
    std::memcpy(&d, &bits, sizeof d);
    if (i == 0) f = -0.0f, d = -0.0;
    a.write(0, i, Scalar::make(f));
    a.write(1, i, Scalar::make(d));
    a.write(2, i, Scalar::make(bits));
    a.write(3, i, Scalar::make(int8_t(bits >> 56)));
  }
  AccPtr use = make_acc(ac::Use{a});
  std::string printed = print_acc(*use);
  AccPtr parsed = parse_acc(printed);
  EXPECT_TRUE(equal(*use, *parsed));
  const Array& back = std::get<ac::Use>(parsed->node).value;
  for (int64_t i = 0; i < a.size(); ++i)
    for (size_t leaf = 0; leaf < a.num_leaves(); ++leaf) {
      Scalar x = a.read(leaf, i), y = back.read(leaf, i);
      bool nans = x.visit([](auto v) { return v != v; }) && y.visit([](auto v) { return v != v; });
      EXPECT_TRUE(x.identical(y) || nans) << "element " << i << " leaf " << leaf;
    }
}

TEST(PrinterLiterals, LabelsRoundTrip) {
  for (const std::string& label :
       std::vector<std::string>{"", "plain", "quote \" and backslash \\", "new\nline\ttab",
                                std::string("nul \0 byte", 10), "\xff\xfe utf-8 \xc3\xa9"}) {
    AccPtr a = make_acc(ac::ATrace{label, make_acc(ac::Var{"xs"})});
    std::string printed = print_acc(*a);
    AccPtr back = parse_acc(printed);
    EXPECT_EQ(std::get<ac::ATrace>(back->node).label, label) << printed;
    EXPECT_TRUE(equal(*a, *back));
  }
}

// ---------------------------------------------------------------- equality

TEST(PrinterEqual, IgnoresPositionsAndCheckerTypes) {
  ExpPtr a = parse_exp("(+ 1 (* x 2))", "a.strata");
  ExpPtr b = parse_exp("\n\n  (+ 1\n (* x\n 2))", "b.strata");
  b->type = Type::scalar(ScalarKind::I64);
  EXPECT_TRUE(equal(*a, *b));
  Program p = parse("(program ((xs (array f32 1))) xs)");
  Program q = parse("(program\n((xs (array f32 1)))\n xs)");
  q.result = Type::array(Type::scalar(ScalarKind::F32), 1);
  EXPECT_TRUE(equal(p, q));
}

TEST(PrinterEqual, DetectsDifferences) {
  auto differ = [](std::string_view x, std::string_view y) {
    return !equal(*parse_acc(x), *parse_acc(y));
  };
  EXPECT_TRUE(differ("(unit (+ 1 2))", "(unit (+ 1 3))"));
  EXPECT_TRUE(differ("(unit (+ 1 2))", "(unit (- 1 2))"));
  EXPECT_TRUE(differ("(unit 0.0)", "(unit -0.0)"));
  EXPECT_TRUE(differ("(unit 1)", "(unit 1i32)"));
  EXPECT_TRUE(differ("(unit nanf32)", "(unit nan)"));
  EXPECT_FALSE(differ("(unit nan)", "(unit nanf64)"));
  EXPECT_FALSE(differ("(unit nan)", "(unit -nan)")); // NaN payloads and signs are not kept
  EXPECT_TRUE(differ("(unit x)", "(unit y)"));
  EXPECT_TRUE(differ("(unit (cast f32 x))", "(unit (cast f64 x))"));
  EXPECT_TRUE(differ("(map (lambda ((x f32)) x) xs)", "(map (lambda ((x f64)) x) xs)"));
  EXPECT_TRUE(differ("(map (lambda ((x f32)) x) xs)", "(map (lambda ((y f32)) y) xs)"));
  EXPECT_TRUE(differ("(fold (lambda ((a f32) (b f32)) a) 0f32 xs)",
                     "(fold1 (lambda ((a f32) (b f32)) a) xs)"));
  EXPECT_TRUE(differ("(scanl (lambda ((a f32) (b f32)) a) 0f32 xs)",
                     "(scanr (lambda ((a f32) (b f32)) a) 0f32 xs)"));
  EXPECT_TRUE(differ("(use (array f32 (2) 1 2))", "(use (array f32 (2) 1 3))"));
  EXPECT_TRUE(differ("(use (array f32 (2) 1 2))", "(use (array f32 (2 1) 1 2))"));
  EXPECT_TRUE(differ("(use (array f32 (2) 1 2))", "(use (array f64 (2) 1 2))"));
  EXPECT_TRUE(differ("(replicate (spec all 2) v)", "(replicate (spec 2 all) v)"));
  EXPECT_TRUE(differ("(stencil (3) clamp (lambda ((nb (window f32 1))) (at nb 0)) a)",
                     "(stencil (3) wrap (lambda ((nb (window f32 1))) (at nb 0)) a)"));
  EXPECT_TRUE(differ("(stencil (3) (constant 0) (lambda ((nb (window f32 1))) (at nb 0)) a)",
                     "(stencil (3) (constant 1) (lambda ((nb (window f32 1))) (at nb 0)) a)"));
  EXPECT_TRUE(differ("(atrace \"a\" xs)", "(atrace \"b\" xs)"));
  EXPECT_TRUE(differ("(atuple xs ys)", "(atuple xs)"));
  EXPECT_TRUE(differ("(alet ((a xs)) a)", "(alet ((b xs)) b)"));
  EXPECT_FALSE(differ("(unit (ix 1 2))", "(unit (ix 1 2))"));
  EXPECT_FALSE(equal(parse("(program ((xs (array f32 1))) xs)"),
                     parse("(program ((xs (array f32 2))) xs)")));
}

} // namespace
} // namespace strata
