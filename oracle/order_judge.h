// The oracle judges the order it replays (docs/language.md, "Legal orders").
//
// Replaying an engine's declared order makes its results bitwise comparable,
// but replay alone agrees with any order, legal or not. Two judgements come
// before and after it:
//  1. statically, the declared grouping of every fold and scan must be legal
//     for its function: strided lanes and the halves tree swap operands, so
//     they are legal only for a function core/combiner.h proves commutative;
//  2. dynamically, where every fold and scan has an exact element type
//     (integers, bools, tuples of them), every legal order gives the
//     canonical order's results for associative functions: results that
//     differ show a function that is not associative, which is reported with
//     three values for which f(f(a, b), c) != f(a, f(b, c)).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/array.h"
#include "core/ir.h"
#include "core/reduction_order.h"

namespace strata {

// Judgement 1: nullopt when `order` groups every fold and scan of `program`
// legally; otherwise one line naming the first reduction it does not:
// "the declared order (...) folds the chunks of `scanl1` at f.strata:1:40 in
// strided lanes, which swap operands, but its function does not provably
// commute (docs/language.md, Legal orders)".
std::optional<std::string> illegal_grouping(const Program& program, const ReductionOrder& order);

// Whether judgement 2 applies: `order` is not canonical and every fold and
// scan of `program` (there is at least one) has an exact element type.
bool judged_against_canonical(const Program& program, const ReductionOrder& order);

// Judgement 2's report, once the results in a legal `order` and in the
// canonical order were found to differ: one line naming a function that is
// not associative and three values that show it, or, where no such values
// are found (a function reading more than its parameters), naming the
// reductions whose functions may not be.
std::string not_associative(const Program& program, const ReductionOrder& order);

} // namespace strata
