#include "python/src/program.h"

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <sstream>

#include "core/check.h"
#include "core/error.h"
#include "core/interrupt.h"
#include "core/parser.h"
#include "core/printer.h"
#include "oracle/faults/faulty_engine.h"
#include "oracle/registry.h"
#include "python/src/convert.h"

namespace strata::python {
namespace {

// Runs Python's signal handlers from inside a call on the main thread
// (core/interrupt.h calls it there, at most every 50 ms): a handler that
// raises (Ctrl-C's KeyboardInterrupt, an alarm's exception) stops the run,
// and its exception, left set, is the call's outcome (Compiled::call).
bool run_signal_handlers() {
  nb::gil_scoped_acquire gil;
  return PyErr_CheckSignals() != 0;
}

} // namespace

Program load(const std::string& source_or_path) {
  size_t first = source_or_path.find_first_not_of(" \t\r\n");
  bool text =
      first != std::string::npos && (source_or_path[first] == '(' || source_or_path[first] == ';');
  std::string source = source_or_path, file = "<string>";
  if (!text) {
    std::ifstream in(source_or_path, std::ios::binary);
    if (!in)
      throw Error(ErrorKind::Input, source_or_path + ": no such program file (and not program "
                                                     "text, which starts with `(`)");
    std::stringstream s;
    s << in.rdbuf();
    source = s.str();
    file = source_or_path;
  }
  Program p = parse_program(source, file);
  check_program(p);
  return p;
}

const Engine& engine_named(const std::string& name) {
  const Engine* e = faults::find_any_engine(name);
  if (!e)
    throw Error(ErrorKind::Usage, "unknown engine `" + name + "`; available: " + engine_names());
  std::string why;
  if (!e->available(why))
    throw Error(ErrorKind::Usage, "engine `" + name + "` is not available here: " + why);
  return *e;
}

Compiled::Compiled(const std::string& source_or_path, const std::string& engine, bool fusion,
                   const std::string& math)
    : program_(std::make_shared<Program>(load(source_or_path))), engine_(engine), fusion_(fusion),
      math_(math) {
  CompileOptions o;
  o.fusion = fusion;
  std::optional<MathMode> mode = parse_math_mode(math);
  if (!mode)
    throw Error(ErrorKind::Usage, "math=\"" + math + "\": unknown mode (accepted: exact, fast)");
  o.math = *mode;
  const Engine& e = engine_named(engine);
  nb::gil_scoped_release nogil; // a jit or cuda compile may take a while
  exe_ = e.compile(*program_, o);
}

std::vector<Array> Compiled::inputs(nb::args args, nb::kwargs kwargs) const {
  const auto& params = program_->params;
  std::string names;
  for (const Param& p : params)
    names += (names.empty() ? "" : ", ") + p.name;
  auto arity = [&](const std::string& given) {
    return nb::type_error(("the program takes " + std::to_string(params.size()) + " argument(s) (" +
                           (names.empty() ? "none" : names) + "), given " + given)
                              .c_str());
  };
  if (args.size() > params.size()) throw arity(std::to_string(args.size()));
  std::vector<nb::handle> given(params.size());
  for (size_t i = 0; i < args.size(); ++i)
    given[i] = args[i];
  for (auto [key, value] : kwargs) {
    std::string k = nb::cast<std::string>(key);
    size_t i = 0;
    while (i < params.size() && params[i].name != k)
      ++i;
    if (i == params.size()) throw arity("an argument named `" + k + "`");
    if (given[i].is_valid()) throw arity("`" + k + "` twice");
    given[i] = value;
  }
  std::vector<Array> out;
  for (size_t i = 0; i < params.size(); ++i) {
    if (!given[i].is_valid()) throw arity("no `" + params[i].name + "`");
    out.push_back(borrow_input(params[i], given[i]));
  }
  return out;
}

nb::object Compiled::results(const std::vector<Array>& arrays) const {
  size_t next = 0;
  std::function<nb::object(const Type&)> build = [&](const Type& t) -> nb::object {
    if (t.is_array()) return to_python(arrays.at(next++));
    nb::list items;
    for (const Type& e : t.elems())
      items.append(build(e));
    return nb::tuple(items);
  };
  return build(program_->result);
}

nb::object Compiled::call(nb::args args, nb::kwargs kwargs) {
  std::vector<Array> in = inputs(args, kwargs);
  std::vector<Array> out;
  {
    nb::gil_scoped_release nogil;
    std::lock_guard<std::mutex> lock(run_);
    out = exe_->run(in); // Interrupted: raised as the handler's exception (errors.cpp)
  }
  if (PyErr_Occurred()) { // a handler raised after the run's last look
    clear_interrupt();
    throw nb::python_error();
  }
  return results(out);
}

std::vector<double> Compiled::run_seconds(const std::vector<Array>& in, int repetitions) {
  std::vector<double> out;
  nb::gil_scoped_release nogil;
  std::lock_guard<std::mutex> lock(run_);
  for (int i = 0; i < repetitions; ++i) {
    auto start = std::chrono::steady_clock::now();
    // The results are freed inside the timed region, as a Python call's are
    // when its caller drops them: both sides pay for the same work.
    exe_->run(in).clear();
    out.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return out;
}

void bind_program(nb::module_& m) {
  set_interrupt_poll(run_signal_handlers, std::chrono::milliseconds(50));
  nb::class_<Compiled>(m, "Compiled",
                       "A program compiled once for one engine; call it with arrays.")
      .def(nb::init<const std::string&, const std::string&, bool, const std::string&>(),
           nb::arg("source"), nb::arg("engine") = "jit", nb::arg("fusion") = true,
           nb::arg("math") = "exact")
      .def("__call__", &Compiled::call)
      .def_prop_ro("engine", &Compiled::engine)
      .def_prop_ro("fusion", &Compiled::fusion)
      .def_prop_ro("math", &Compiled::math)
      .def_prop_ro("math_ulps", &Compiled::math_ulps,
                   "0, or how many ULP fast math may put a library function's result from "
                   "the interpreter's")
      .def_prop_ro(
          "text", [](const Compiled& c) { return print_program(c.program()); },
          "the program in canonical text form")
      .def_prop_ro(
          "params",
          [](const Compiled& c) {
            std::vector<std::pair<std::string, std::string>> out;
            for (const Param& p : c.program().params)
              out.emplace_back(p.name, p.type.str());
            return out;
          },
          "(name, type) of each parameter, in order")
      .def(
          "_run_seconds",
          [](Compiled& c, nb::list inputs, int repetitions) {
            return c.run_seconds(c.inputs(nb::borrow<nb::args>(nb::tuple(inputs)), nb::kwargs()),
                                 repetitions);
          },
          nb::arg("inputs"), nb::arg("repetitions"),
          "Seconds of each of `repetitions` runs timed in C++, around the engine's run "
          "alone (the baseline of the Python call's overhead; bench/python_bench.py)")
      .def("__repr__", [](const Compiled& c) {
        return "<strata.Compiled engine=" + c.engine() + (c.fusion() ? "" : " unfused") + ">";
      });
}

} // namespace strata::python
