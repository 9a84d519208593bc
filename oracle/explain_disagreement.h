// The oracle's explanation (interpreter/explain.h) of the element a
// disagreement names, so that a failing check and a counterexample bundle
// show why the oracle computed what it did.
#pragma once

#include <string>
#include <vector>

#include "core/array.h"
#include "core/ir.h"

namespace strata {

// `disagreement` is a comparison message such as "tbb vs interp: result 1:
// element (5,2): expected 3, found 4". Returns the oracle's evaluation tree of
// that element as text, or "" when the message names no element (a shape,
// type or error mismatch) or the element cannot be explained.
std::string explain_disagreement(const Program& program, const std::vector<Array>& inputs,
                                 const std::string& disagreement);

} // namespace strata
