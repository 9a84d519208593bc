// A program compiled once and called many times from Python (Accelerate's
// run1): `strata.compile(source_or_path, engine="jit", fusion=True)`.
#pragma once

#include <nanobind/nanobind.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/engine.h"
#include "core/ir.h"

namespace strata::python {

namespace nb = nanobind;

// Program text (it starts with `(` or `;`) or the path of a .strata file,
// parsed and type-checked (ProgramError otherwise).
Program load(const std::string& source_or_path);

// The engine of that name (faulty:FAULT engines too), available here, else
// InputError saying why not.
const Engine& engine_named(const std::string& name);

class Compiled {
public:
  // `math`: "exact" or "fast" (core/engine.h MathMode), else InputError.
  Compiled(const std::string& source_or_path, const std::string& engine, bool fusion,
           const std::string& math = "exact");
  // Runs with the GIL released; runs of one Compiled take turns, different
  // ones run at once. Positional arguments in parameter order, or keywords.
  nb::object call(nb::args args, nb::kwargs kwargs);
  // The inputs in parameter order, checked and borrowed (no copies).
  std::vector<Array> inputs(nb::args args, nb::kwargs kwargs) const;
  // Seconds of each run, timed around the engine's run alone (GIL released).
  std::vector<double> run_seconds(const std::vector<Array>& inputs, int repetitions);
  // The results as Python objects: one array, or tuples as the result nests.
  nb::object results(const std::vector<Array>& arrays) const;

  const Program& program() const { return *program_; }
  const std::string& engine() const { return engine_; }
  bool fusion() const { return fusion_; }
  const std::string& math() const { return math_; }
  // Executable::math_ulps: 0, or how far fast math may be from the interpreter.
  int math_ulps() const { return exe_->math_ulps(); }

private:
  std::shared_ptr<Program> program_;
  std::string engine_;
  bool fusion_;
  std::string math_;
  std::unique_ptr<Executable> exe_;
  std::mutex run_;
};

void bind_program(nb::module_& m);

} // namespace strata::python
