// Strata errors as Python exceptions (docs/python.md, Errors):
//   strata.Error          the base; attributes kind ("bounds", ...),
//                         location ("file:line:col" or ""), headline, message
//   strata.ProgramError   the text does not parse or type-check (syntax, type)
//   strata.RuntimeError   a run-time error (bounds, division by zero, shape,
//                         empty reduction, resource); also a builtins.RuntimeError
//   strata.InputError     bad inputs, files or options (input, usage)
#pragma once

#include <nanobind/nanobind.h>

namespace strata::python {

namespace nb = nanobind;

// Creates the classes in `m` and translates strata::Error into them.
void bind_errors(nb::module_& m);

} // namespace strata::python
