// Leaf views (fusion/leaf_view.h): a generate whose element is its own
// element of another kernel's result, or a `proj` of it, is recognised with
// the right leaves, and nothing else is (inputs, other indices, arithmetic);
// the jit shares those leaves instead of copying them, and its results stay
// the interpreter's, bitwise, also where the shapes differ and it computes.
#include <gtest/gtest.h>

#include "core/error.h"
#include "fusion/fuse.h"
#include "fusion/leaf_view.h"
#include "oracle/compare.h"
#include "oracle/registry.h"
#include "tests/test_util.h"
#if STRATA_HAVE_JIT
#include "jit/engine.h"
#endif

namespace strata::test {
namespace {

// The leaf views of a program's generate kernels, in run order (fused).
std::vector<std::optional<LeafView>> views_of(const std::string& text) {
  KernelGraph g = build_kernel_graph(parse_and_check(text));
  std::vector<std::optional<LeafView>> out;
  for (const Kernel* k : compute_kernels(g))
    if (auto* gen = std::get_if<kn::Generate>(&k->body)) out.push_back(leaf_view(g, *gen));
  return out;
}

// ps: a tuple array made by a kernel (read twice, so it is made manifest).
const std::string kPairs =
    "(alet ((ps (generate (shape xs) (lambda ((i (ix 1)))"
    " (let ((x (! xs i))) (tuple (tuple (* x 2f32) (cast i32 x)) (- x 1f32)))))))";

TEST(LeafView, ProjectionsOfAKernelsResultAreItsLeaves) {
  auto v = views_of("(program ((xs (array f32 1)))" + kPairs +
                    " (atuple (map (lambda ((t (tuple (tuple f32 i32) f32))) (proj 1 t)) ps)"
                    "  (map (lambda ((t (tuple (tuple f32 i32) f32))) (proj 0 t)) ps)"
                    "  (map (lambda ((t (tuple (tuple f32 i32) f32))) (proj 1 (proj 0 t))) ps)"
                    "  (map (lambda ((t (tuple (tuple f32 i32) f32))) t) ps))))");
  ASSERT_EQ(v.size(), 5u);
  EXPECT_FALSE(v[0]); // ps itself is computed
  auto expect = [&](const std::optional<LeafView>& got, size_t first, size_t leaves) {
    ASSERT_TRUE(got) << "no view where leaves " << first << ".." << first + leaves << " are";
    EXPECT_EQ(got->first_leaf, first);
    EXPECT_EQ(got->leaves, leaves);
  };
  expect(v[1], 2, 1); // the f32 after the pair
  expect(v[2], 0, 2); // the pair: two leaves
  expect(v[3], 1, 1); // the pair's i32
  expect(v[4], 0, 3); // all of it
  // Rank 2: the index passed through `ix` of its own components, in order.
  auto m = views_of("(program ((m (array f32 2)))"
                    " (alet ((ps (map (lambda ((x f32)) (tuple x (+ x 1f32))) m)))"
                    "  (atuple (generate (shape ps) (lambda ((i (ix 2)))"
                    "   (proj 0 (! ps (ix (proj 0 i) (proj 1 i))))))"
                    "   (map (lambda ((t (tuple f32 f32))) (proj 1 t)) ps))))");
  ASSERT_EQ(m.size(), 3u);
  expect(m[1], 0, 1);
  expect(m[2], 1, 1);
}

TEST(LeafView, NothingElseIsAView) {
  for (const char* text : {
           // an input (its storage may be the caller's)
           "(program ((ps (array (tuple f32 f32) 1)))"
           " (map (lambda ((t (tuple f32 f32))) (proj 0 t)) ps))",
           // arithmetic on the component
           "(program ((xs (array f32 1))) (alet ((ps (map (lambda ((x f32)) (tuple x x)) xs)))"
           " (atuple ps (map (lambda ((t (tuple f32 f32))) (+ (proj 0 t) 0f32)) ps))))",
           // another element: reversed, transposed
           "(program ((xs (array f32 1))) (alet ((ps (map (lambda ((x f32)) (tuple x x)) xs)))"
           " (atuple ps (generate (shape ps) (lambda ((i (ix 1)))"
           "  (proj 0 (! ps (ix (- (- (size ps) 1) (proj 0 i))))))))))",
           "(program ((m (array f32 2))) (alet ((ps (map (lambda ((x f32)) (tuple x x)) m)))"
           " (atuple ps (generate (shape ps) (lambda ((i (ix 2)))"
           "  (proj 0 (! ps (ix (proj 1 i) (proj 0 i)))))))))",
           // a literal
           "(program () (alet ((ps (use (array (tuple f32 i32) (2) (1f32 2i32) (3f32 4i32)))))"
           " (map (lambda ((t (tuple f32 i32))) (proj 1 t)) ps)))",
           // an unused binding that can fail (found by the jit property, RapidCheck
           // seed 4065004625040607048: the view skipped the `!!` and its error)
           "(program ((a (array i8 0))) (map (lambda ((x u16)) (let ((v (!! a 7))) x))"
           " (unit 1u16)))",
           // a read of another array (in range or not: not the view's to know)
           "(program ((xs (array f32 1)) (ys (array f32 1)))"
           " (alet ((ps (map (lambda ((x f32)) (tuple x x)) xs)))"
           " (atuple ps (generate (shape ps) (lambda ((i (ix 1)))"
           "  (let ((y (! ys i))) (proj 0 (! ps i))))))))",
       }) {
    for (const std::optional<LeafView>& v : views_of(text))
      EXPECT_FALSE(v) << text;
  }
}

#if STRATA_HAVE_JIT
const Engine& jit() {
  static auto engine = make_jit_engine();
  return *engine;
}

TEST(LeafView, TheJitSharesTheLeavesAndEqualsTheInterpreter) {
  Program p = parse_and_check(
      "(program ((xs (array f32 1)))" + kPairs +
      " (atuple ps (map (lambda ((t (tuple (tuple f32 i32) f32))) (proj 1 t)) ps)"
      "  (map (lambda ((t (tuple (tuple f32 i32) f32))) (proj 1 (proj 0 t))) ps))))");
  std::vector<Array> in{array_of<float>({1.5f, -2.25f, 7.0f, 0.5f, 3.0f}, {5})};
  std::vector<Array> want = interpret(p, in);
  std::vector<Array> got = jit().compile(p, {})->run(in);
  ASSERT_EQ(got.size(), 3u);
  for (size_t r = 0; r < got.size(); ++r)
    EXPECT_TRUE(identical(got[r], want[r]))
        << "result " << r << ": " << compare_arrays(want[r], got[r]).value_or("differs bitwise");
  EXPECT_EQ(got[1].leaf(0).data(), got[0].leaf(2).data());
  EXPECT_EQ(got[2].leaf(0).data(), got[0].leaf(1).data());
}

TEST(LeafView, ADifferentShapeIsComputedAndItsErrorsAreTheInterpreters) {
  // The same element over a shape of its own: fewer elements (computed, not
  // shared) and more (the read out of range fails as in the interpreter).
  std::vector<Array> in{array_of<float>({1.5f, -2.25f, 7.0f, 0.5f, 3.0f}, {5})};
  for (const char* n : {"3", "7"}) {
    Program p =
        parse_and_check("(program ((xs (array f32 1)))" + kPairs + " (atuple ps (generate (ix " +
                        n + ") (lambda ((i (ix 1))) (proj 1 (! ps i)))))))");
    std::optional<Error> want_error;
    std::vector<Array> want;
    try {
      want = interpret(p, in);
    } catch (const Error& e) {
      want_error = e;
    }
    try {
      std::vector<Array> got = jit().compile(p, {})->run(in);
      ASSERT_FALSE(want_error) << n << ": the interpreter failed, the jit did not";
      EXPECT_TRUE(identical(got[1], want[1])) << n;
      EXPECT_NE(got[1].leaf(0).data(), got[0].leaf(2).data()) << n;
    } catch (const Error& e) {
      ASSERT_TRUE(want_error) << n << ": only the jit failed: " << e.what();
      EXPECT_EQ(e.message(), want_error->message());
    }
  }
}
#endif

// The same program on every engine, unfused: the unused binding's error is
// the interpreter's (docs/language.md "Errors": the engine unfused computes
// everything), where a leaf view would have returned the unit's value.
TEST(LeafView, AnUnusedBindingThatFailsFailsOnEveryEngineUnfused) {
  Program p = parse_and_check("(program ((a (array i8 0)))"
                              " (map (lambda ((x u16)) (let ((v (!! a 7))) x)) (unit 1u16)))");
  std::vector<Array> in{scalar_array<int8_t>(3)};
  std::string want;
  try {
    interpret(p, in);
  } catch (const Error& e) {
    want = e.headline();
  }
  ASSERT_FALSE(want.empty()) << "the interpreter must fail";
  for (const Engine* e : all_engines()) {
    std::string why;
    if (!e->available(why)) continue;
    CompileOptions unfused;
    unfused.fusion = false;
    try {
      e->compile(p, unfused)->run(in);
      ADD_FAILURE() << e->name() << " unfused returned a result";
    } catch (const Error& err) {
      EXPECT_EQ(err.headline(), want) << e->name();
    }
  }
}

} // namespace
} // namespace strata::test
