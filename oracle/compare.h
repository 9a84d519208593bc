// Comparing result arrays: the expected (the oracle, or a file) against an
// engine's.
//
// compare_bitwise is what the differential check uses: the oracle replays the
// engine's declared reduction order (core/reduction_order.h), so every
// element must be bitwise the same, NaNs included: every engine stores the
// one canonical NaN (core/semantics.h, sem::canonical), so a NaN of another
// sign or payload is a difference.
//
// compare_arrays (fixed rtol/atol) remains for hand-written golden tests.
#pragma once

#include <optional>
#include <string>

#include "core/array.h"

namespace strata {

struct Tolerance {
  double f32_rtol = 1e-5, f32_atol = 1e-6;
  double f64_rtol = 1e-12, f64_atol = 1e-12;
};

// nullopt when every element is bitwise equal (NaNs too);
// otherwise the first difference: "element (3) component 1: expected 1.5
// (0x3fc00000), found 1.5000001 (0x3fc00001), 1 ulp apart".
std::optional<std::string> compare_bitwise(const Array& expected, const Array& actual);

// Distance in units in the last place between two finite floats of one kind
// (0 for equal values, -0.0 and 0.0 one apart); the largest int64 when
// either is NaN or infinite.
int64_t ulps_apart(const Scalar& a, const Scalar& b);

// nullopt when they agree; otherwise a one-line description of the first difference.
std::optional<std::string> compare_arrays(const Array& expected, const Array& actual,
                                          const Tolerance& tolerance = {});

} // namespace strata
