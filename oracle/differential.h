// One differential check: the oracle (the interpreter) and an engine on the
// same program and inputs, compared under the program-derived tolerance
// (oracle/tolerance.h). Also checks determinism: the engine runs twice and
// must give bitwise the same results (or the same error).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/engine.h"
#include "core/error.h"
#include "oracle/tolerance.h"

namespace strata {

// What running a program gave: results, or an error.
struct Outcome {
  std::vector<Array> results;
  std::optional<ErrorKind> error;
  std::string message; // the error's what()
};

// Compiles `program` (checked) for `engine` with `options` and runs it `runs`
// times; a second run that differs bitwise from the first is reported in
// `nondeterminism`.
Outcome run_engine(const Engine& engine, const Program& program, const std::vector<Array>& inputs,
                   const CompileOptions& options, int runs = 1,
                   std::string* nondeterminism = nullptr);

struct DiffReport {
  bool agree = true;
  std::string disagreement; // one line when !agree
  ProgramTolerance tolerance;
  Outcome oracle;
};

// Compares two outcomes of the same program under a tolerance.
std::optional<std::string> compare_outcomes(const Outcome& expected, const Outcome& actual,
                                            const ProgramTolerance& tolerance);

// The oracle against `engine` (run twice) on one program and its inputs. A
// fused run may skip an error that lies only in work fusion removes, when the
// unfused run of the same engine raises it.
DiffReport differential_check(const Program& program, const std::vector<Array>& inputs,
                              const Engine& engine, const CompileOptions& options);

} // namespace strata
