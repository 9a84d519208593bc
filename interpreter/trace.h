// What `strata run --trace` prints: one line per collective result, and per
// `trace`/`atrace` form, on a stream separate from the program's output.
//
// A collective's line names the operation and its position and summarises
// the result the way NumPy does: element type, shape, the first and last few
// elements in row-major order, and for float leaves the minimum, maximum and
// NaN count. A filter keeps the lines of one source line or one operation.
#pragma once

#include <string>
#include <string_view>

#include "core/array.h"
#include "core/error.h"

namespace strata {

// "(array f32 1) shape (1000) [0, 0.5, 1, ..., 498.5, 499, 499.5] min 0 max 499.5 nans 0":
// all elements when there are at most 2*edge of them, else the first and last `edge`.
std::string summarize_array(const Array& a, int edge = 3);

// Whether `filter` selects an event: empty selects everything; digits select a
// source line number; anything else an operation name (`map`, `fold`, `trace`)
// or the label of a `trace`/`atrace` form.
bool trace_selected(const std::string& filter, const SrcLoc& loc, std::string_view op,
                    std::string_view label = {});

} // namespace strata
