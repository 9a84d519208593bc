// Programs that together use every form of the language, for the fusion
// tests: each converts to a kernel graph fused and unfused, and the graph
// evaluator must agree with the interpreter on them (tests/fusion_test.cpp,
// tests/kernel_graph_eval_test.cpp). Every program takes the parameters of
// kParams, bound to kInputs().
#pragma once

#include <string>
#include <vector>

#include "tests/test_util.h"

namespace strata::test {

struct FusionCase {
  const char* name;
  const char* body;
};

inline const char* kFusionParams =
    "(program ((xs (array i64 1)) (m (array i64 2)) (fs (array f64 1)) (segs (array i64 1)))\n";

inline std::vector<Array> fusion_inputs() {
  return {array_of<int64_t>({3, -1, 4, 1, -5, 9, 2, 6}),
          array_of<int64_t>({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {3, 4}),
          array_of<double>({0.5, -1.25, 3.0, 1e10, -0.0}), array_of<int64_t>({1, 0, 3})};
}

inline std::string fusion_program(const FusionCase& c) {
  return std::string(kFusionParams) + c.body + ")";
}

inline const std::vector<FusionCase>& fusion_cases() {
  static const std::vector<FusionCase> cases = {
      {"use", "(use (array (tuple i32 f32) (3) (1 0.5) (2 1.5) (3 2.5)))"},
      {"unit", "(alet ((u (unit 2))) (unit (+ (the u) (size xs))))"},
      {"generate", "(generate (ix 2 3) (lambda ((i (ix 2))) (+ (* 10 (proj 0 i)) (proj 1 i))))"},
      {"fill", "(fill (ix 2 2) (tuple 1i8 true))"},
      {"map_chain",
       "(map (lambda ((x i64)) (+ x 1)) (map (lambda ((x i64)) (* x 2)) (map (lambda ((x i64)) "
       "(- x 3)) (map (lambda ((x i64)) (neg x)) (map (lambda ((x i64)) (* x x)) (generate (ix "
       "5) (lambda ((i (ix 1))) (proj 0 i))))))))"},
      {"zipwith_intersection",
       "(zipwith (lambda ((x i64) (y i64)) (- x y)) xs (map (lambda ((r i64)) (* r 3)) "
       "(generate (ix 5) (lambda ((i (ix 1))) (proj 0 i)))))"},
      {"zipwith_rank2", "(zipwith (lambda ((a i64) (b i64)) (* a b)) m (fill (ix 2 9) 7))"},
      {"fold", "(fold (lambda ((a i64) (b i64)) (+ a b)) 100 (map (lambda ((x i64)) (* x x)) m))"},
      {"fold1", "(fold1 (lambda ((a f64) (b f64)) (max a b)) (map (lambda ((x f64)) (* x x)) fs))"},
      {"fold_empty", "(fold (lambda ((a i64) (b i64)) (+ a b)) 5 (generate (ix 3 0) (lambda ((i "
                     "(ix 2))) 1)))"},
      {"foldseg", "(foldseg (lambda ((a i64) (b i64)) (+ a b)) 0 (map (lambda ((x i64)) (* 2 x)) "
                  "m) (map (lambda ((s i64)) s) segs))"},
      {"scans",
       "(alet ((ys (map (lambda ((x i64)) (- x 1)) xs))) (atuple (scanl (lambda ((a i64) (b i64)) "
       "(- a b)) 10 (map (lambda ((x i64)) x) m)) (scanl1 (lambda ((a i64) (b i64)) (+ a b)) "
       "(reshape (ix 6 2) m)) (scanr (lambda ((x i64) (a i64)) (- x a)) 7 ys) (scanr1 (lambda "
       "((x i64) (a i64)) (max x a)) (map (lambda ((x i64)) (neg x)) xs))))"},
      {"scanl_prime",
       "(alet ((t (scanl' (lambda ((a i64) (b i64)) (+ a b)) 5 (map (lambda ((x i64)) (* x 3)) "
       "m)))) (atuple (aproj 1 t) (aproj 0 t)))"},
      {"permute_histogram",
       "(permute (lambda ((new i64) (old i64)) (+ new old)) (fill (ix 4) 0) (lambda ((i (ix 1))) "
       "(let ((k (! xs i))) (if (< k 0) (ignore 1) (ix (mod k 4))))) (map (lambda ((k i64)) (* k "
       "k)) xs))"},
      {"backpermute_transpose",
       "(backpermute (ix (proj 1 (shape m)) (proj 0 (shape m))) (lambda ((i (ix 2))) (ix (proj 1 "
       "i) (proj 0 i))) (map (lambda ((x i64)) (+ x 1)) m))"},
      {"backpermute_cheap",
       "(map (lambda ((x i64)) (* x 2)) (backpermute (ix 3) (lambda ((i (ix 1))) (ix (* 2 (proj 0 "
       "i)))) (reshape (ix 12) m)))"},
      {"reshape", "(reshape (ix 2 2 3) (map (lambda ((x i64)) (neg x)) m))"},
      {"replicate", "(replicate (spec 2 all 3) (map (lambda ((x f64)) (* x 2.0)) fs))"},
      {"slice", "(atuple (slice (map (lambda ((x i64)) (* x 10)) m) (spec 1 all)) (slice m (spec "
                "all (- (proj 1 (shape m)) 1))))"},
      {"slice_replicate_cheap",
       "(alet ((r (replicate (spec 3 all) xs))) (zipwith (lambda ((a i64) (b i64)) (+ a b)) r "
       "(slice (replicate (spec all all 2) r) (spec all all 1))))"},
      {"stencil_clamp",
       "(stencil (3 3) clamp (lambda ((nb (window i64 2))) (+ (at nb -1 0) (* 2 (at nb 0 1)))) "
       "(map (lambda ((x i64)) (* x x)) m))"},
      {"stencil_others",
       "(atuple (stencil (5) mirror (lambda ((nb (window i64 1))) (- (at nb -2) (at nb 2))) xs) "
       "(stencil (3) wrap (lambda ((nb (window i64 1))) (+ (at nb -1) (at nb 1))) xs) (stencil "
       "(3) (constant (size xs)) (lambda ((nb (window i64 1))) (+ (at nb -1) (at nb 1))) xs))"},
      {"awhile",
       "(awhile (lambda ((s (array f64 1))) (map (lambda ((v f64)) (>= v 1.0)) (fold1 (lambda "
       "((a f64) (b f64)) (max a b)) (reshape (ix (size s)) s)))) (lambda ((s (array f64 1))) "
       "(map (lambda ((x f64)) (/ x 2.0)) s)) (map (lambda ((x f64)) (abs x)) fs))"},
      {"awhile_tuple_state_outer_shared",
       "(alet ((w (map (lambda ((x i64)) (* x 2)) xs))) (awhile (lambda ((s (tuple (array i64 1) "
       "(array i64 0)))) (alet ((c (aproj 1 s))) (unit (< (the c) 3)))) (lambda ((s (tuple (array "
       "i64 1) (array "
       "i64 0)))) (atuple (zipwith (lambda ((a i64) (b i64)) (+ a b)) (aproj 0 s) w) (map (lambda "
       "((c i64)) (+ c 1)) (aproj 1 s)))) (atuple w (unit 0))))"},
      {"acond",
       "(alet ((a (map (lambda ((x i64)) (* x 3)) xs)) (t (fold (lambda ((p i64) (q i64)) (+ p q)) "
       "0 xs))) (acond (> (the t) 0) (map (lambda ((x i64)) (+ x 1)) a) (generate (ix 2) (lambda "
       "((i "
       "(ix 1))) 0))))"},
      {"acond_else", "(acond (< (size xs) 0) xs (fill (ix 3) 9))"},
      {"atrace", "(atrace \"t\" (map (lambda ((x i64)) (+ x 1)) xs))"},
      {"shared_twice", "(alet ((a (map (lambda ((x i64)) (* x x)) xs))) (zipwith (lambda ((p "
                       "i64) (q i64)) (- p q)) a (map (lambda ((y i64)) (+ y 1)) a)))"},
      {"indexed_reads",
       "(alet ((a (map (lambda ((x i64)) (* x 5)) xs)) (b (generate (ix 3 4) (lambda ((i (ix 2))) "
       "(+ (proj 0 i) (proj 1 i)))))) (generate (shape b) (lambda ((i (ix 2))) (+ (+ (! b i) (!! "
       "a (proj 1 i))) (+ (size a) (to-index (shape b) (from-index (shape b) (proj 0 i))))))))"},
      {"shape_of_delayed",
       "(alet ((a (map (lambda ((x i64)) (* x 5)) xs))) (generate (shape a) (lambda ((i (ix 1))) "
       "(+ (proj 0 i) (size a)))))"},
      {"scalar_while_trace",
       "(map (lambda ((x i64)) (trace \"x\" (while (lambda ((s i64)) (> s 10)) (lambda ((s i64)) "
       "(quot s 2)) (* x 100)))) xs)"},
      {"shadowing",
       "(alet ((xs (map (lambda ((x i64)) (+ x 1)) xs)) (xs (map (lambda ((xs i64)) (* xs 2)) "
       "xs))) (zipwith (lambda ((xs i64) (i i64)) (+ xs i)) xs (generate (shape xs) (lambda ((xs "
       "(ix 1))) (proj 0 xs)))))"},
      {"atuple_result_twice", "(atuple xs xs (use (array i64 (2) 1 2)))"},
      // run-time errors: the graph must raise the same kind
      {"err_backpermute", "(backpermute (ix 4) (lambda ((i (ix 1))) (ix (* 3 (proj 0 i)))) xs)"},
      {"err_backpermute_delayed",
       "(backpermute (ix 4) (lambda ((i (ix 1))) (ix (* 5 (proj 0 i)))) (reshape (ix 12) m))"},
      {"err_reshape", "(reshape (ix 5) (map (lambda ((x i64)) x) xs))"},
      {"err_negative", "(map (lambda ((x i64)) x) (generate (ix -1) (lambda ((i (ix 1))) 0)))"},
      // everyday forms (core/sugar.h), expanded by the checker
      {"sugar_rows",
       "(atuple (++ (take 2 m) (reverse (drop 1 m))) (transpose m) (postscanl + 0 (tail xs)) "
       "(postscanr max -100 (init xs)))"},
      {"sugar_whole",
       "(atuple (sum fs) (product xs) (maximum m) (minimum xs) (any (lambda (x) (< x 0)) xs) "
       "(all isnan fs) (and (map (lambda (x) (> x 0)) segs)))"},
      {"sugar_nary", "(zipwith (lambda (a b c) (+ a (* b c))) xs (reshape (ix 12) m) (iota 5))"},
      {"sugar_gather_scatter",
       "(atuple (gather (map (lambda (x) (mod x 8)) (reshape (ix 12) m)) xs) (scatter segs "
       "(enumFromN (ix 4) 0) (enumFromStepN (ix 3) 5 -1)))"},
      {"sugar_data_lengths",
       "(atuple (filter (lambda (x) (> x 0)) xs) (compact (map (lambda (x) (> x 5)) m) m) "
       "(scanl1seg + m (use (array i64 (3) 2 0 2))) (scanr1seg max (map (lambda (x) (* x x)) m) "
       "(use (array i64 (2) 3 1))) (scanlseg - 7 m (use (array i64 (3) 0 3 1))) (scanrseg - 7 "
       "(reshape (ix 12) m) (use (array i64 (4) 5 0 0 7))))"},
      {"sugar_stencil2",
       "(stencil2 (3 1) wrap (1 3) (constant 5) (lambda (a b) (- (at a 1 0) (at b 0 -1))) m "
       "(reshape (ix 2 6) m))"},
      {"err_compact_shapes", "(compact (map (lambda (x) (> x 0)) (reshape (ix 4 2) xs)) m)"},
      {"err_segments", "(scanrseg + 0 m (use (array i64 (2) 1 1)))"},
      {"let_functions",
       "(map (lambda (x) (let ((k 2) (f (lambda (y) (* y k))) (g (lambda (a b) (- (f a) b)))) "
       "(for 3 (g x 1) (lambda (i acc) (+ acc (f i)))))) xs)"},
      {"err_gather", "(gather (use (array i64 (3) 0 7 1)) xs)"},
      {"err_slice", "(map (lambda ((x i64)) x) (slice m (spec 7 all)))"},
      {"err_division", "(map (lambda ((x i64)) (quot 1 x)) (map (lambda ((x i64)) (- x 1)) xs))"},
      {"err_permute", "(permute (lambda ((a i64) (b i64)) (+ a b)) (fill (ix 2) 0) (lambda ((i "
                      "(ix 1))) i) xs)"},
      {"err_fold1_empty", "(fold1 (lambda ((a i64) (b i64)) (+ a b)) (fill (ix 2 0) 1))"},
  };
  return cases;
}

// Bodies over `xs` (array i64 1) = [1 2 3] that fail at run time: every kind
// of run-time error, at an element past the first batch or chunk, plus
// extreme indices whose range checks must not overflow. Engines must raise
// the interpreter's error kind on each, fused and unfused.
inline const std::vector<const char*>& failing_bodies() {
  static const std::vector<const char*> bodies = {
      "(generate (ix 700) (lambda ((i (ix 1))) (let ((j (proj 0 i))) (if (== j 600) (! xs (ix "
      "9)) (quot 1 (- j 300))))))",
      "(fold (lambda ((a i64) (b i64)) (quot a b)) 1 (generate (ix 4 300) (lambda ((i (ix "
      "2))) (- (proj 1 i) 200))))",
      "(scanl1 (lambda ((a i64) (b i64)) (+ a (!! xs b))) (generate (ix 100) (lambda ((i (ix "
      "1))) (proj 0 i))))",
      "(permute (lambda ((a i64) (b i64)) (+ a b)) (fill (ix 3) 0) (lambda ((i (ix 1))) (ix "
      "(proj 0 i))) (fill (ix 5) 1))",
      "(fold1 (lambda ((a i64) (b i64)) (+ a b)) (fill (ix 2 0) 1))",
      "(reshape (ix 4) xs)",
      "(backpermute (ix 5) (lambda ((i (ix 1))) (ix (- 4 (proj 0 i)))) xs)",
      "(map (lambda ((x i64)) (to-index (ix 2) (ix x))) xs)",
      "(map (lambda ((x i64)) (proj 0 (from-index (ix 2) x))) xs)",
      "(foldseg (lambda ((a i64) (b i64)) (+ a b)) 0 xs (use (array i64 (2) 1 1)))",
      "(permute (lambda ((a i64) (b i64)) (+ a b)) (fill (ix 3) 0) (lambda ((i (ix 1))) (ix "
      "9223372036854775807)) (fill (ix 5) 1))",
      "(permute (lambda ((a i64) (b i64)) (+ a b)) (fill (ix 3) 0) (lambda ((i (ix 1))) (ix "
      "(- -9223372036854775807 1))) (fill (ix 5) 1))",
      "(map (lambda ((x i64)) (! xs (ix (- -9223372036854775807 x)))) xs)",
      "(map (lambda ((x i64)) (! xs (ix (+ 9223372036854775806 x)))) xs)",
  };
  return bodies;
}

} // namespace strata::test
