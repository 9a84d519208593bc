// The extension module `strata._strata`; python/strata/__init__.py is the
// package users import (docs/python.md).
#include <nanobind/nanobind.h>

#include "python/src/errors.h"
#include "python/src/program.h"

namespace strata::python {
void bind_tools(nb::module_& m); // tools.cpp
} // namespace strata::python

NB_MODULE(_strata, m) {
  m.doc() = "Strata: compile and run data-parallel array programs on NumPy arrays";
  strata::python::bind_errors(m);
  strata::python::bind_program(m);
  strata::python::bind_tools(m);
}
