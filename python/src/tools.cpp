// The oracle's tools from Python: the engines and why some are missing, the
// differential check of a program on given inputs, and `explain`.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <chrono>

#include "core/version.h"
#include "interpreter/explain.h"
#include "oracle/differential.h"
#include "oracle/explain_disagreement.h"
#include "oracle/registry.h"
#include "python/src/program.h"

namespace strata::python {
namespace {

// The arrays of `inputs` (a sequence) for the program's parameters.
std::vector<Array> inputs_of(const Compiled& c, nb::handle inputs) {
  nb::list items(inputs);
  nb::tuple args(items);
  return c.inputs(nb::borrow<nb::args>(args), nb::kwargs());
}

nb::list engines() {
  nb::list out;
  for (const Engine* e : all_engines()) {
    std::string why;
    bool ok = e->available(why);
    nb::dict d;
    d["name"] = e->name();
    d["available"] = ok;
    d["why"] = ok ? "" : why;
    out.append(d);
  }
  return out;
}

// One row per engine and fusion mode: the differential check (the oracle
// replaying the engine's declared order; every element compared).
nb::list check(const std::string& source, nb::handle inputs, nb::object engine_names_arg) {
  Compiled oracle(source, "interp", true);
  std::vector<Array> in = inputs_of(oracle, inputs);
  std::vector<std::string> names;
  if (engine_names_arg.is_none()) {
    for (const Engine* e : all_engines()) {
      std::string why;
      if (e->name() != "interp" && e->available(why)) names.push_back(e->name());
    }
  } else {
    names = nb::cast<std::vector<std::string>>(engine_names_arg);
  }
  nb::list rows;
  for (const std::string& name : names) {
    const Engine& e = engine_named(name);
    for (bool fusion : {true, false}) {
      CompileOptions o;
      o.fusion = fusion;
      DiffReport r;
      auto start = std::chrono::steady_clock::now();
      {
        nb::gil_scoped_release nogil;
        r = differential_check(oracle.program(), in, e, o);
      }
      double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      nb::dict row;
      row["engine"] = name;
      row["fusion"] = fusion;
      row["agrees"] = r.agree;
      row["disagreement"] = r.disagreement;
      row["explanation"] =
          r.agree ? std::string() : explain_disagreement(oracle.program(), in, r.disagreement);
      row["compared"] = r.counts.str();
      row["oracle_error"] = r.oracle.error ? r.oracle.headline : std::string();
      row["check_ms"] = ms;
      rows.append(row);
    }
  }
  return rows;
}

std::string explain(const std::string& source, nb::handle inputs, std::vector<int64_t> at,
                    size_t result, bool json) {
  Compiled oracle(source, "interp", true);
  std::vector<Array> in = inputs_of(oracle, inputs);
  return explain_element(oracle.program(), in, result, Index(at.begin(), at.end()),
                         json ? ExplainFormat::Json : ExplainFormat::Text);
}

} // namespace

void bind_tools(nb::module_& m) {

  m.def("engines", &engines, "Every engine of this build: name, available, and why not.");
  m.def("check", &check, nb::arg("program"), nb::arg("inputs"), nb::arg("engines") = nb::none(),
        "The differential check of each engine, fused and unfused, against the oracle.");
  m.def("explain", &explain, nb::arg("program"), nb::arg("inputs"), nb::arg("at"),
        nb::arg("result") = 0, nb::arg("json") = false,
        "Why one result element has its value: the oracle's evaluation tree.");
  m.attr("__version__") = std::string(version());
}

} // namespace strata::python
