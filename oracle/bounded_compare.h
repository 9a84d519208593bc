// Comparing an array with the bounded evaluation of the program that should
// have produced it (interpreter/bounds.h), element by element:
//  - a determined float: inside [lo, hi] (as numbers) passes, counted
//    `bounded`; outside, or NaN, fails;
//  - a determined int or bool: bitwise equal to the interpreter's value,
//    counted `bitwise`;
//  - an undetermined element: bitwise equal to the interpreter's value (NaN
//    matching NaN) passes, counted `bitwise`; otherwise it fails, counted
//    `not_compared`, with the reason the bound could not be carried.
// A failure is one line: the element, the value found, the interval (the
// tolerance that was used) and how far outside it is, absolutely and in ulps
// ("element (3): found 1.1, outside the bound [1, 1.0000002] by 0.0999998
// (838860 ulps)"), or the interpreter's value for an element compared
// bitwise ("element (2): found 31, the interpreter 30 (compared bitwise)").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/array.h"
#include "interpreter/bound_value.h"
#include "oracle/differential.h"

namespace strata {

struct BoundedComparison {
  ElementCounts counts;
  int64_t failures = 0;              // elements that failed (and type or shape mismatches)
  std::vector<std::string> messages; // the first few failures, one line each
  bool ok() const { return failures == 0; }
};

BoundedComparison compare_with_bounds(const BoundedArray& bounds, const Array& actual,
                                      size_t max_messages = 5);

// The user's tolerance instead of bounds (`strata check --rtol R --atol A`):
// every float element within |actual - expected| <= atol + rtol * |expected|
// (compare_arrays' rule), every other element bitwise.
BoundedComparison compare_within(const Array& expected, const Array& actual, double rtol,
                                 double atol);

} // namespace strata
