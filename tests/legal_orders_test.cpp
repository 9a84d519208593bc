// Folds and scans of associative functions that do not commute, on every
// engine, fused and unfused, at row lengths around every threshold of the
// order they run (docs/language.md, "Legal orders"): forward fill (the last
// non-zero) and the four segmented scans of `+`. Each result is checked
// against values computed here by the definition (a running loop, as
// NumPy's cumsum per segment), not against the oracle: a replayed illegal
// order agreed with every engine here before the orders were made legal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/engine_suite.h"

namespace strata::test {
namespace {

// Row lengths: around every threshold of boundary_order() (chunked folds
// and scans, their chunks), a million, and in the optimised build the
// 2^24 +- 1 of the issue that found the bug (not on the interpreter, whose
// canonical order has no threshold: 50 s of test time for nothing).
std::vector<int64_t> lengths(bool huge) {
  ReductionOrder o = boundary_order();
  std::vector<int64_t> out;
  for (int64_t t :
       {o.fold_chunk, o.fold_chunked_from, o.scan_chunked_from, 2 * o.scan_chunked_from})
    for (int64_t d : {-1, 0, 1})
      out.push_back(t + d);
  out.push_back(kUnderSanitizers ? 5000 : int64_t(1) << 20);
  if (huge && !kUnderSanitizers)
    for (int64_t d : {-1, 1})
      out.push_back((int64_t(1) << 24) + d);
  return out;
}

// Mostly zeros, with non-zeros spread so that every chunk and lane sees some.
std::vector<int64_t> sparse(int64_t n) {
  std::vector<int64_t> xs(size_t(n), 0);
  for (int64_t i = 1; i < n; i += 4099)
    xs[size_t(i)] = i;
  if (n > 1) xs[1] = 1;
  if (n > 16368) xs[16368] = 2; // the issue's: 2 after 1, 16 lanes apart
  return xs;
}

const char* kFill = "(lambda ((a i64) (b i64)) (if (== b 0) a b))";

class LegalOrders : public EngineSuite {
protected:
  bool huge() const { return GetParam().engine != "interp"; }
};

TEST_P(LegalOrders, ForwardFillFold) {
  Program p =
      parse_and_check(std::string("(program ((xs (array i64 1))) (fold ") + kFill + " 0 xs))");
  for (int64_t n : lengths(huge())) {
    std::vector<int64_t> xs = sparse(n);
    int64_t last = 0;
    for (int64_t x : xs)
      if (x != 0) last = x;
    std::vector<Array> out = run(p, {array_of(xs)});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(values_of<int64_t>(out[0]), std::vector<int64_t>{last}) << "n = " << n;
  }
}

TEST_P(LegalOrders, ForwardFillScans) {
  for (const char* scan : {"scanl1", "scanr1"}) {
    Program p = parse_and_check(std::string("(program ((xs (array i64 1))) (") + scan + " " +
                                kFill + " xs))");
    bool right = std::string(scan) == "scanr1";
    for (int64_t n : lengths(huge() && !right)) {
      std::vector<int64_t> xs = sparse(n);
      std::vector<int64_t> want(static_cast<size_t>(n), 0);
      // scanl1: the last non-zero of 0..i. scanr1: f(x(i), acc) keeps acc
      // unless it is zero, so element i is the last non-zero of i..n-1.
      int64_t acc = 0;
      if (!right) {
        for (int64_t i = 0; i < n; ++i)
          want[size_t(i)] = acc = xs[size_t(i)] != 0 ? xs[size_t(i)] : acc;
      } else {
        int64_t last = 0;
        for (int64_t i = n - 1; i >= 0; --i) {
          if (last == 0 && xs[size_t(i)] != 0) last = xs[size_t(i)];
          want[size_t(i)] = last;
        }
      }
      std::vector<Array> out = run(p, {array_of(xs)});
      ASSERT_EQ(out.size(), 1u);
      EXPECT_EQ(values_of<int64_t>(out[0]), want) << scan << ", n = " << n;
    }
  }
}

// Ones in segments [1, n - 1]: each segment's running sums.
TEST_P(LegalOrders, SegmentedScansOfPlus) {
  struct Form {
    std::string text;
    bool seeded, right;
  };
  for (const Form& f :
       {Form{"(scanl1seg + xs segs)", false, false}, Form{"(scanr1seg + xs segs)", false, true},
        Form{"(scanlseg + 0 xs segs)", true, false}, Form{"(scanrseg + 0 xs segs)", true, true}}) {
    Program p =
        parse_and_check("(program ((xs (array i64 1)) (segs (array i64 1))) " + f.text + ")");
    for (int64_t n : lengths(huge() && f.text == "(scanl1seg + xs segs)")) {
      std::vector<int64_t> segs{1, n - 1}, want;
      for (int64_t len : segs) {
        // scanl: 0, 1, .., len (scanl1 without the 0); scanr: the reverse.
        std::vector<int64_t> sums;
        for (int64_t k = f.seeded ? 0 : 1; k <= len; ++k)
          sums.push_back(k);
        if (f.right) std::reverse(sums.begin(), sums.end());
        want.insert(want.end(), sums.begin(), sums.end());
      }
      std::vector<Array> out =
          run(p, {array_of(std::vector<int64_t>(size_t(n), 1)), array_of(segs)});
      ASSERT_EQ(out.size(), 1u);
      std::vector<int64_t> got = values_of<int64_t>(out[0]);
      ASSERT_EQ(got.size(), want.size()) << f.text << ", n = " << n;
      EXPECT_TRUE(got == want) << f.text << ", n = " << n << ": first difference at "
                               << (std::mismatch(got.begin(), got.end(), want.begin()).first -
                                   got.begin());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryEngine, LegalOrders, ::testing::ValuesIn(targets(true)), target_name);

} // namespace
} // namespace strata::test
