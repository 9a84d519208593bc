// Printing arrays for people, in the style of NumPy.
//
// The command-line tools show results and inputs with `format_array`, which
// lays an array out like NumPy's `repr` of its data: nested brackets, one row
// per line, blank lines between higher-rank blocks, `...` summaries for big
// arrays, tuples as `(1, 0.5)`. Values use `format_value` (shortest round trip
// for floats, `true`/`false` for bools) and are right-aligned per scalar leaf.
// `describe_array` is the one-line summary used when the data itself is too
// big to be worth printing.
#pragma once

#include <cstdint>
#include <string>

#include "core/array.h"

namespace strata {

// NumPy-style text of the array's data. When a.size() > threshold, every
// dimension longer than 2*edge shows only its first and last `edge` items with
// `...` between them. Rank 0 prints the element alone; an empty array is `[]`.
// Lines are not wrapped.
std::string format_array(const Array& a, int64_t threshold = 1000, int edge = 3);

// One line: type and shape, e.g. `(array f32 2) shape (3,4)`, followed for each
// float leaf by its minimum and maximum (ignoring NaNs) and its NaN count.
std::string describe_array(const Array& a);

} // namespace strata
