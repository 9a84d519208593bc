// The jit's cache key (jit/key.h): kernels that differ in anything their
// code is made from get different keys; the same kernel written elsewhere in
// another program (other lines, spacing, comments, parameter names) gets the
// same key, so that it is reused.
#include <gtest/gtest.h>

#include <map>

#include "fusion/fuse.h"
#include "jit/key.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {

// The key of the program's first kernel, fused.
std::string first_key(const std::string& program) {
  Program p = parse_and_check(program);
  KernelGraph g = build_kernel_graph(p, FusionOptions{true});
  EXPECT_FALSE(g.body.empty()) << program;
  const Kernel& k = g.body.front();
  return jit::kernel_key(jit::kernel_text(g, k, int(g.arrays.size()) + k.id), true, "target");
}

std::string map_over(const std::string& params, const std::string& lambda,
                     const std::string& input) {
  return "(program (" + params + ") (map " + lambda + " " + input + "))";
}

TEST(JitKey, KernelsThatDifferInAnyPartGetDifferentKeys) {
  const std::string xs = "(xs (array i64 1))", fs = "(fs (array f64 1))";
  const std::vector<std::string> programs = {
      map_over(xs, "(lambda ((x i64)) (+ x 1))", "xs"),
      map_over(xs, "(lambda ((x i64)) (+ x 2))", "xs"),               // literal
      map_over(xs, "(lambda ((x i64)) (- x 1))", "xs"),               // operator
      map_over(xs, "(lambda ((x i64)) (+ 1 x))", "xs"),               // operand order
      map_over(xs, "(lambda ((y i64)) (+ y 1))", "xs"),               // variable name
      map_over(xs, "(lambda ((x i64)) (cast i32 x))", "xs"),          // cast target
      map_over(xs, "(lambda ((x i64)) (cast i16 x))", "xs"),          //
      map_over(xs, "(lambda ((x i64)) (! xs (ix 0)))", "xs"),         // read
      map_over(xs, "(lambda ((x i64)) (! xs (ix 1)))", "xs"),         //
      map_over(xs, "(lambda ((x i64)) (!! xs 1))", "xs"),             // linear read
      map_over(xs, "(lambda ((x i64)) (size xs))", "xs"),             //
      map_over(xs, "(lambda ((x i64)) (if (< x 0) 1 2))", "xs"),      // branches
      map_over(xs, "(lambda ((x i64)) (if (< x 0) 2 1))", "xs"),      //
      map_over(xs, "(lambda ((x i64)) (let ((a x) (b 1)) a))", "xs"), // let
      map_over(xs, "(lambda ((x i64)) (let ((a x) (b 1)) b))", "xs"), //
      map_over(xs, "(lambda ((x i64)) (proj 0 (tuple x 1)))", "xs"),  // projection
      map_over(xs, "(lambda ((x i64)) (proj 1 (tuple x 1)))", "xs"),  //
      map_over(xs,
               "(lambda ((x i64)) (while (lambda ((s i64)) (< s 10)) (lambda ((s i64)) (+ s 1)) "
               "x))",
               "xs"),
      map_over(xs,
               "(lambda ((x i64)) (while (lambda ((s i64)) (< s 11)) (lambda ((s i64)) (+ s 1)) "
               "x))",
               "xs"),
      map_over(fs, "(lambda ((x f64)) (+ x 0.0))", "fs"),  // float bits
      map_over(fs, "(lambda ((x f64)) (+ x -0.0))", "fs"), //
      map_over(xs, "(lambda ((x i64)) (+ x 1))",           // the array's type
               "(map (lambda ((x i32)) (cast i64 x)) (use (array i32 (2) 1 2)))"),
      "(program (" + xs + ") (fold (lambda ((a i64) (b i64)) (+ a b)) 0 xs))", // seed
      "(program (" + xs + ") (fold (lambda ((a i64) (b i64)) (+ a b)) 1 xs))",
      "(program (" + xs + ") (fold1 (lambda ((a i64) (b i64)) (+ a b)) xs))",
      "(program (" + xs + ") (scanl1 (lambda ((a i64) (b i64)) (+ a b)) xs))", // scan kind
      "(program (" + xs + ") (scanr1 (lambda ((a i64) (b i64)) (+ a b)) xs))",
      "(program (" + xs + ") (stencil (3) clamp (lambda ((nb (window i64 1))) (at nb -1)) xs))",
      "(program (" + xs + ") (stencil (3) clamp (lambda ((nb (window i64 1))) (at nb 1)) xs))",
      "(program (" + xs + ") (stencil (3) wrap (lambda ((nb (window i64 1))) (at nb 1)) xs))",
      "(program (" + xs +
          ") (stencil (3) (constant 7) (lambda ((nb (window i64 1))) (at nb "
          "1)) xs))",
      "(program (" + xs +
          ") (stencil (3) (constant 8) (lambda ((nb (window i64 1))) (at nb "
          "1)) xs))",
      "(program (" + xs + ") (stencil (5) clamp (lambda ((nb (window i64 1))) (at nb 1)) xs))",
  };
  std::map<std::string, std::string> seen;
  for (const std::string& p : programs) {
    std::string key = first_key(p);
    EXPECT_EQ(key.size(), 40u);
    auto [it, fresh] = seen.emplace(key, p);
    EXPECT_TRUE(fresh) << p << "\nhas the key of\n" << it->second;
  }
}

TEST(JitKey, TheSameKernelElsewhereGetsTheSameKey) {
  std::string a = "(program ((xs (array i64 1))) (map (lambda ((x i64)) (quot 10 (- x 2))) xs))";
  std::string b = "; another file\n\n(program ((ys (array i64 1)))\n  (map (lambda ((x i64))\n"
                  "       (quot 10 (- x 2)))   ; the same map\n     ys))\n";
  EXPECT_EQ(first_key(a), first_key(b));
}

} // namespace
} // namespace strata::test
