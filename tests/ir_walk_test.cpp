// core/ir_walk.h: every form's children, in source order (the sequences
// below are written by hand from the program texts), and the slot walk
// rewrites children in place.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/ir_walk.h"
#include "core/parser.h"

namespace strata {
namespace {

// The forms of every node of `text`'s body, parents first: E: scalar, A: array.
std::vector<std::string> preorder(const std::string& text) {
  Program p = parse_program(text, "walk.strata");
  std::vector<std::string> out;
  walk_nodes(
      *p.body, [&](Exp& e) { out.push_back("E:" + std::string(form_name(e.node))); },
      [&](Acc& a) { out.push_back("A:" + std::string(form_name(a.node))); });
  return out;
}

using Seq = std::vector<std::string>;

TEST(IrWalk, ScalarFormsLetIfTupleProjCastSize) {
  EXPECT_EQ(preorder(R"((program ((xs (array f32 1)))
  (map (lambda ((x f32))
         (let ((y (* x 2f32)))
           (if (< y 0f32) (proj 0 (tuple y x)) (cast f32 (size xs)))))
       xs)))"),
            (Seq{"A:map", "E:let", "E:*", "E:variable", "E:literal", "E:if", "E:<", "E:variable",
                 "E:literal", "E:proj", "E:tuple", "E:variable", "E:variable", "E:cast", "E:size",
                 "A:variable", "A:variable"}));
}

TEST(IrWalk, ScalarFormsReadsIndicesWhileTrace) {
  EXPECT_EQ(
      preorder(R"((program ((xs (array i64 1)) (s (array i64 0)))
  (generate (shape xs)
    (lambda ((i (ix 1)))
      (trace "t"
        (+ (! xs (from-index (shape xs) (to-index (shape xs) i)))
           (+ (!! xs 0)
              (while (lambda ((k i64)) (< k (the s))) (lambda ((k i64)) (+ k 1)) 0))))))))"),
      (Seq{"A:generate", "E:shape",      "A:variable", "E:trace",    "E:+",        "E:!",
           "A:variable", "E:from-index", "E:shape",    "A:variable", "E:to-index", "E:shape",
           "A:variable", "E:variable",   "E:+",        "E:!!",       "A:variable", "E:literal",
           "E:while",    "E:<",          "E:variable", "E:the",      "A:variable", "E:+",
           "E:variable", "E:literal",    "E:literal"}));
}

TEST(IrWalk, ArrayFormsBindingsReductions) {
  EXPECT_EQ(
      preorder(R"((program ((xs (array i64 1)) (segs (array i64 1)))
  (alet ((u (use (array i64 (2) 1 2)))
         (f (fill (ix 3) 7)))
    (atuple
      (zipwith (lambda ((a i64) (b i64)) (+ a b)) u f)
      (fold (lambda ((a i64) (b i64)) (+ a b)) 0 xs)
      (foldseg (lambda ((a i64) (b i64)) (+ a b)) 0 xs segs)
      (scanl1 (lambda ((a i64) (b i64)) (+ a b)) xs)
      (aproj 0 (atuple (unit 1) xs))))))"),
      (Seq{"A:alet",     "A:use",      "A:fill",   "E:ix",       "E:literal",  "E:literal",
           "A:atuple",   "A:zipwith",  "E:+",      "E:variable", "E:variable", "A:variable",
           "A:variable", "A:fold",     "E:+",      "E:variable", "E:variable", "E:literal",
           "A:variable", "A:foldseg",  "E:+",      "E:variable", "E:variable", "E:literal",
           "A:variable", "A:variable", "A:scanl1", "E:+",        "E:variable", "E:variable",
           "A:variable", "A:aproj",    "A:atuple", "A:unit",     "E:literal",  "A:variable"}));
}

TEST(IrWalk, ArrayFormsIndexingStencilControl) {
  EXPECT_EQ(
      preorder(R"((program ((xs (array i64 1)))
  (atrace "a"
    (acond (< 1 2)
      (permute (lambda ((new i64) (old i64)) (+ new old))
               xs
               (lambda ((i (ix 1))) (ignore 1))
               xs)
      (backpermute (ix 2) (lambda ((i (ix 1))) i)
        (reshape (ix 4)
          (slice (replicate (spec 2 all)
                   (stencil (3) (constant 0) (lambda ((nb (window i64 1))) (at nb -1)) xs))
                 (spec 0 all))))))))"),
      (Seq{"A:atrace",      "A:acond",    "E:<",         "E:literal",  "E:literal", "A:permute",
           "E:+",           "E:variable", "E:variable",  "A:variable", "E:ignore",  "A:variable",
           "A:backpermute", "E:ix",       "E:literal",   "E:variable", "A:reshape", "E:ix",
           "E:literal",     "A:slice",    "A:replicate", "E:literal",  "A:stencil", "E:literal",
           "E:at",          "A:variable", "E:literal"}));
}

TEST(IrWalk, ArrayFormsAwhile) {
  EXPECT_EQ(
      preorder(R"((program ((xs (array f64 1)))
  (awhile (lambda ((s (array f64 1))) (unit (< 1 2)))
          (lambda ((s (array f64 1))) s)
          xs)))"),
      (Seq{"A:awhile", "A:unit", "E:<", "E:literal", "E:literal", "A:variable", "A:variable"}));
}

// A rewriter through the slots: every variable `y` below the node becomes `z`.
void rename_y(ExpPtr& e) {
  if (const auto* v = std::get_if<ex::Var>(&e->node); v && v->name == "y")
    e = parse_exp("z");
  else
    for_each_child_slot(*e, rename_y, [](AccPtr&) {});
}

TEST(IrWalk, SlotsRewriteChildrenInPlace) {
  ExpPtr e = parse_exp("(let ((y 1)) (if (< y 0) (tuple y (proj 0 (tuple y 2))) (ix y)))");
  rename_y(e);
  EXPECT_TRUE(
      equal(*e, *parse_exp("(let ((y 1)) (if (< z 0) (tuple z (proj 0 (tuple z 2))) (ix z)))")));
}

// The const walk sees the same children as the mutable one.
TEST(IrWalk, ConstAndMutableWalksAgree) {
  ExpPtr e = parse_exp("(while (lambda ((k i64)) (< k 3)) (lambda ((k i64)) (+ k 1)) 0)");
  std::vector<const Exp*> mutable_children, const_children;
  for_each_child(
      *e, [&](Exp& x) { mutable_children.push_back(&x); }, [](Acc&) {});
  const Exp& c = *e;
  for_each_child(
      c, [&](const Exp& x) { const_children.push_back(&x); }, [](const Acc&) {});
  EXPECT_EQ(mutable_children, const_children);
  ASSERT_EQ(const_children.size(), 3u); // cond body, step body, start value
  EXPECT_EQ(form_name(const_children[0]->node), "<");
  EXPECT_EQ(form_name(const_children[2]->node), "literal");
}

} // namespace
} // namespace strata
