// The typed fast paths of the tbb engine against the interpreter: native
// folds and scans of long rows (tbb/fold_native.h, tbb/scan_native.h) at
// sizes around their batch and chunk boundaries, every scan kind, several
// rows; typed and gathered reads; and errors in element order (the first
// failing element of the first failing row wins, whatever chunk it is in).
#include <gtest/gtest.h>

#include "tbb/batch.h"
#include "tests/tbb_expect.h"

namespace strata::test {
namespace {

using tbbe::kBatch;

// Integer-valued data (exact in f64 too), `rows` rows of `n`.
std::string gen(const std::string& type, int64_t rows, int64_t n) {
  return "(generate (ix " + std::to_string(rows) + " " + std::to_string(n) +
         ") (lambda ((i (ix 2))) (cast " + type +
         " (- (mod (+ (* (proj 1 i) 7919) (* (proj 0 i) 31)) 1000) 500))))";
}

TEST(TbbNative, ScansOfEveryKindAroundBatchAndChunkBoundaries) {
  // kBatch: one batch; kBatch + 44: a partial batch; 16385: two chunks, the
  // last of one element; 40000: three chunks.
  for (int64_t n : {int64_t(kBatch), int64_t(kBatch) + 44, int64_t(16385), int64_t(40000)})
    for (std::string scan : {"scanl", "scanl1", "scanr", "scanr1", "scanl'"}) {
      bool seeded = scan == "scanl" || scan == "scanr" || scan == "scanl'";
      std::string seed = seeded ? " 7" : "";
      expect_same("(program () (" + scan + " (lambda ((a i64) (b i64)) (+ a b))" + seed + " " +
                  gen("i64", 3, n) + "))");
    }
}

TEST(TbbNative, ScansOfEveryRecognisedOperationAndType) {
  for (std::string op : {"+", "*", "min", "max", "band", "bor", "bxor"})
    expect_same("(program () (scanl1 (lambda ((a i32) (b i32)) (" + op + " a b)) " +
                gen("i32", 2, 20000) + "))");
  // Float + of integers below 2^24 in magnitude: exact in any order.
  expect_same("(program () (scanl (lambda ((a f64) (b f64)) (+ b a)) 0.5f64 " +
              gen("f64", 2, 20000) + "))");
}

TEST(TbbNative, FoldsOfLongRowsEqualTheInterpreterOnIntegers) {
  // The last chunk of a row: whole, one element, fewer elements than
  // accumulator lanes, lanes plus a partial block, several batches plus one.
  // Every operation on i64; narrower types (more lanes per vector) on fewer.
  auto check = [](int64_t n, const std::string& type, const std::string& op) {
    expect_same("(program () (fold1 (lambda ((a " + type + ") (b " + type + ")) (" + op +
                " b a)) " + gen(type, 2, n) + "))");
  };
  for (int64_t n : {32768, 32769, 32768 + 13, 32768 + 200, 70001})
    for (std::string op : {"+", "*", "min", "max", "band", "bor", "bxor"})
      check(n, "i64", op);
  for (int64_t n : {32768 + 13, 70001})
    for (std::string type : {"i32", "i8"})
      for (std::string op : {"+", "*", "min", "bxor"})
        check(n, type, op);
}

// A fold of products or sums (a dot product) runs the element function
// without its last `(* a b)` / `(+ a b)` and combines a[i]*b[i] straight into
// the accumulators (ScalarFunction::tail_binary): same results, same errors.
TEST(TbbNative, FoldsOfProductsAndSumsAsOneSuperinstruction) {
  for (int64_t n : {32768 + 13, 70001})
    for (std::string type : {"i64", "i32", "i8"})
      for (std::string tail : {"*", "+"})
        for (std::string op : {"+", "max"})
          expect_same("(program () (alet ((xs " + gen(type, 1, n) + ")) (fold1 (lambda ((a " +
                      type + ") (b " + type + ")) (" + op + " a b)) (zipwith (lambda ((x " + type +
                      ") (y " + type + ")) (" + tail + " x y)) xs (map (lambda ((v " + type +
                      ")) (bxor v 5" + type + ")) xs)))))");
  // The head fails (a read past the end) in the middle of a chunk.
  std::string e =
      tbb_error("(program ((xs (array i32 1))) (fold (lambda ((a i32) (b i32)) (+ a b)) "
                "0i32 (generate (ix 40000) (lambda ((i (ix 1))) (* (! xs i) (! xs i))))))",
                {array_of<int32_t>(std::vector<int32_t>(35000, 3), {35000})});
  EXPECT_NE(e.find("(35000)"), std::string::npos) << e;
}

TEST(TbbNative, ReadsAtConsecutiveGatheredAndMultiDimensionalIndices) {
  std::vector<int32_t> v(5000);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = int32_t(i * 37 % 1001) - 500;
  Array xs = array_of<int32_t>(v, {50, 100});
  // Consecutive (row-major), reversed, strided and broadcast reads, tuples of reads.
  expect_same("(program ((xs (array i32 2))) (generate (ix 50 100) (lambda ((i (ix 2)))"
              " (tuple (! xs i) (! xs (ix (- 49 (proj 0 i)) (- 99 (proj 1 i))))"
              "        (!! xs (mod (* (+ (* (proj 0 i) 100) (proj 1 i)) 13) 5000))"
              "        (! xs (ix (proj 0 i) 0))))))",
              {xs});
  // A fold of a map over a 2-d array read at its own index, and at the transpose.
  expect_same("(program ((xs (array i32 2))) (fold (lambda ((a i32) (b i32)) (+ a b)) 0i32"
              " (generate (ix 100 50) (lambda ((i (ix 2)))"
              "   (* (! xs (ix (proj 1 i) (proj 0 i))) 3i32)))))",
              {xs});
}

TEST(TbbNative, ScanErrorsComeFromTheFirstFailingRowEvenInALaterChunk) {
  // Row 0 fails only at its last element (the last chunk), row 1 at its
  // first: the interpreter raises row 0's error, and so must tbb.
  Array xs = array_of<int64_t>({1, 2, 3});
  std::string text = "(program ((xs (array i64 1))) (scanl1 (lambda ((a i64) (b i64)) (+ a b))"
                     " (generate (ix 2 40000) (lambda ((i (ix 2)))"
                     "   (if (or (and (== (proj 0 i) 0) (== (proj 1 i) 39999))"
                     "           (and (== (proj 0 i) 1) (== (proj 1 i) 0)))"
                     "       (!! xs (+ 100 (* (proj 0 i) 1000)))"
                     "       1)))))";
  std::string message = tbb_error(text, {xs});
  EXPECT_NE(message.find("100 "), std::string::npos) << message; // linear index 100, row 0's
  EXPECT_EQ(message.find("1100"), std::string::npos) << message;
}

TEST(TbbNative, FoldErrorsComeFromTheFirstFailingElementOfALongRow) {
  Array xs = array_of<int64_t>({1, 2, 3});
  std::string text = "(program ((xs (array i64 1))) (fold1 (lambda ((a i64) (b i64)) (+ a b))"
                     " (generate (ix 100000) (lambda ((i (ix 1)))"
                     "   (let ((j (proj 0 i)))"
                     "     (if (or (== j 20000) (== j 90000)) (!! xs (+ 5 j)) j))))))";
  std::string message = tbb_error(text, {xs});
  EXPECT_NE(message.find("20005"), std::string::npos) << message;
}

// Found by `strata fuzz --engine tbb --count 10000 --seed 7` (program 5518):
// two unused alet bindings both fail; the first (a slice out of bounds over
// a cheap fill) must be raised, not the second (a scan over a negative
// extent). Fusion used to drop the cheap unused binding with its checks.
TEST(TbbNative, UnusedBindingsFailInBindingOrder) {
  std::string text =
      "(program ((p0 (array f32 1)))"
      "  (alet ((t1 (slice (fill (ix 0 2 3) 0i16) (spec 0 0 0)))"
      "         (t4 (scanl (lambda ((a u8) (b u8)) (bor a b)) 0u8 (fill (ix -1 1) 255u8))))"
      "    (fill (ix) 0i16)))";
  Array p0 = array_of<float>({1.0f});
  std::string message = tbb_error(text, {p0});
  EXPECT_NE(message.find("slice"), std::string::npos) << message;
}

} // namespace
} // namespace strata::test
