// core/scan_layout.h against the layout docs/language.md "Scans (blocked)"
// states, written out by hand for rows of 3 and of 0 elements.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/scan_layout.h"

namespace strata::test {
namespace {

using ac::ScanKind;

// Each output slot of a row of n: "s" the seed, "q" the accumulator after
// scan position q, "." nothing written (scanl''s total goes elsewhere).
std::vector<std::string> layout(ScanKind k, int64_t n) {
  std::vector<std::string> out(size_t(scan_output_extent(k, n)), ".");
  if (int64_t i = scan_seed_output(k, n); i >= 0) out.at(size_t(i)) = "s";
  for (int64_t q = 0; q < n; ++q)
    if (int64_t i = scan_output_after(k, n, q); i >= 0) out.at(size_t(i)) = std::to_string(q);
  return out;
}

using L = std::vector<std::string>;

TEST(ScanLayout, EveryKindOnARowOfThree) {
  EXPECT_EQ(layout(ScanKind::Scanl, 3), (L{"s", "0", "1", "2"}));
  EXPECT_EQ(layout(ScanKind::Scanl1, 3), (L{"0", "1", "2"}));
  EXPECT_EQ(layout(ScanKind::ScanlPrime, 3), (L{"s", "0", "1"})); // "2": the total
  EXPECT_EQ(layout(ScanKind::Scanr, 3), (L{"2", "1", "0", "s"}));
  EXPECT_EQ(layout(ScanKind::Scanr1, 3), (L{"2", "1", "0"}));
  for (ScanKind k : {ScanKind::Scanr, ScanKind::Scanr1})
    EXPECT_EQ(scan_element(k, 3, 0), 2); // read backwards
  EXPECT_EQ(scan_element(ScanKind::Scanl, 3, 0), 0);
  EXPECT_TRUE(scans_from_the_right(ScanKind::Scanr1));
  EXPECT_FALSE(scans_from_the_right(ScanKind::ScanlPrime));
  EXPECT_FALSE(scan_is_seeded(ScanKind::Scanl1));
  EXPECT_TRUE(scan_is_seeded(ScanKind::ScanlPrime));
}

TEST(ScanLayout, EmptyRows) {
  EXPECT_EQ(layout(ScanKind::Scanl, 0), (L{"s"}));
  EXPECT_EQ(layout(ScanKind::Scanr, 0), (L{"s"}));
  EXPECT_EQ(layout(ScanKind::ScanlPrime, 0), L{}); // the seed is only its total
  EXPECT_EQ(layout(ScanKind::Scanl1, 0), L{});
  EXPECT_EQ(layout(ScanKind::Scanr1, 0), L{});
}

} // namespace
} // namespace strata::test
