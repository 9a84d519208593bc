// Checking a benchmark's results against the hand-written baseline's, once
// per benchmark, before anything is timed: a wrong engine must not produce a
// fast figure. Integers and shapes must be identical; floats are identical
// (rtol 0) or within rtol * max|expected| of each result (Workload::rtol, set
// per workload from how much reassociating its sums may legitimately change).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/array.h"

namespace strata::bench {

// nullopt when they agree, else the first difference, for SkipWithError.
std::optional<std::string> check_results(const std::vector<Array>& expected,
                                         const std::vector<Array>& actual, double rtol);

} // namespace strata::bench
