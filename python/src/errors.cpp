#include "python/src/errors.h"

#include "core/error.h"
#include "core/interrupt.h"

namespace strata::python {
namespace {

PyObject* g_base = nullptr;
PyObject* g_program = nullptr;
PyObject* g_runtime = nullptr;
PyObject* g_input = nullptr;

PyObject* class_of(ErrorKind k) {
  switch (k) {
  case ErrorKind::Syntax:
  case ErrorKind::Type: return g_program;
  case ErrorKind::Input:
  case ErrorKind::Usage: return g_input;
  default: return g_runtime;
  }
}

} // namespace

void bind_errors(nb::module_& m) {
  g_base = PyErr_NewException("strata.Error", PyExc_Exception, nullptr);
  g_program = PyErr_NewException("strata.ProgramError", g_base, nullptr);
  nb::object bases = nb::make_tuple(nb::handle(g_base), nb::handle(PyExc_RuntimeError));
  g_runtime = PyErr_NewException("strata.RuntimeError", bases.ptr(), nullptr);
  g_input = PyErr_NewException("strata.InputError", g_base, nullptr);
  m.attr("Error") = nb::handle(g_base);
  m.attr("ProgramError") = nb::handle(g_program);
  m.attr("RuntimeError") = nb::handle(g_runtime);
  m.attr("InputError") = nb::handle(g_input);
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const Error& e) {
      PyObject* cls = class_of(e.kind());
      nb::object err = nb::steal(PyObject_CallOneArg(cls, nb::str(e.what()).ptr()));
      if (!err.is_valid()) return; // the call set its own exception
      err.attr("kind") = nb::str(std::string(error_kind_name(e.kind())).c_str());
      err.attr("location") = nb::str(e.loc().str().c_str());
      err.attr("headline") = nb::str(e.headline().c_str());
      err.attr("message") = nb::str(e.message().c_str());
      PyErr_SetObject(cls, err.ptr());
    } catch (const Interrupted&) {
      // A signal handler raised during the run (python/src/program.cpp): its
      // exception is set already. Else some other stop: KeyboardInterrupt.
      clear_interrupt();
      if (!PyErr_Occurred()) PyErr_SetNone(PyExc_KeyboardInterrupt);
    }
  });
}

} // namespace strata::python
