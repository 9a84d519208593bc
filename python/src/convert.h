// Arrays between Python and Strata without copies (docs/python.md).
//
// In: an object exposing DLPack or the buffer protocol (NumPy, JAX and
// PyTorch CPU arrays) becomes a strata::Array whose buffer borrows the
// object's memory and keeps the object alive; it must be C-contiguous,
// aligned, on the CPU and of the parameter's dtype and rank, else a
// TypeError says what was expected and what was given (never a silent copy
// or cast). Out: a result's buffers become NumPy arrays that own them.
#pragma once

#include <nanobind/nanobind.h>

#include "core/array.h"
#include "core/ir.h"

namespace strata::python {

namespace nb = nanobind;

// The array for parameter `p` from `obj`.
Array borrow_input(const Param& p, nb::handle obj);

// One result: a NumPy array owning the result's buffer, or, for tuple
// elements, a tuple of such arrays (one per leaf, as the element nests).
nb::object to_python(const Array& a);

// The NumPy dtype name of a scalar kind ("float32").
const char* numpy_dtype_name(ScalarKind k);

} // namespace strata::python
