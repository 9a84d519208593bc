// Comparing result arrays: the expected (oracle or golden file) against an
// engine's.
//
// Element types, shapes, integers and bools must match exactly. Floats match
// when both are NaN, both the same infinity, or |actual - expected| <=
// atol + rtol * |expected| with a per-precision default. This fixed bound is
// the starting policy for golden files; the differential harness derives
// tighter, program-specific bounds (see docs/semantics.md).
#pragma once

#include <optional>
#include <string>

#include "core/array.h"

namespace strata {

struct Tolerance {
  double f32_rtol = 1e-5, f32_atol = 1e-6;
  double f64_rtol = 1e-12, f64_atol = 1e-12;
};

// nullopt when they agree; otherwise a one-line description of the first difference.
std::optional<std::string> compare_arrays(const Array& expected, const Array& actual,
                                          const Tolerance& tolerance = {});

} // namespace strata
