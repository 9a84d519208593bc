// One differential check: an engine against the oracle on the same program
// and inputs (issue 16).
//
// The engine declares the association order of the reductions it ran
// (Executable::reduction_order, core/reduction_order.h); the oracle, the
// interpreter, evaluates the program under that order, and every output
// element must be bitwise the same (NaN matches any NaN), every error the
// same kind with the same headline (`file:line:col: error: message`, built by
// core/runtime_errors.h on every engine). The engine also runs twice and must
// give bitwise the same results or the same error: determinism.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/engine.h"
#include "core/error.h"

namespace strata {

// What running a program gave: results, or an error.
struct Outcome {
  std::vector<Array> results;
  std::optional<ErrorKind> error;
  std::string headline; // the error's Error::headline(): what is compared
  std::string message;  // the error's what() (headline and context): what people read
  ReductionOrder order; // the association order its reductions ran in
  int math_ulps = 0;    // Executable::math_ulps of the run
  // Some run (of the engine: any of its runs) ran out of memory
  // (Buffer::out_of_memory): the outcome depends on what else was live.
  bool out_of_memory = false;
};

// How the output elements (scalar values: an element of a tuple type counts
// once per component) of comparisons were compared. `not_compared` must stay
// 0: it counts results the check could not compare at all.
struct ElementCounts {
  int64_t bitwise = 0;
  int64_t bounded = 0; // under a propagated error bound (reserved: no engine needs it today)
  int64_t not_compared = 0;
  // Checks not compared at all because a run ran out of memory (see
  // differential_check): reported, never counted as agreeing.
  int64_t checks_out_of_memory = 0;
  ElementCounts& operator+=(const ElementCounts& o) {
    bitwise += o.bitwise;
    bounded += o.bounded;
    not_compared += o.not_compared;
    checks_out_of_memory += o.checks_out_of_memory;
    return *this;
  }
  int64_t total() const { return bitwise + bounded + not_compared; }
  // "1200 elements: 1200 bitwise, 0 under a bound, 0 not compared", then
  // "; 2 check(s) not compared: out of memory" when there are such checks
  std::string str() const;
};

// Records a raised error in `o` (kind, headline, whole message).
void record_error(Outcome& o, const Error& e);

// Compiles `program` (checked) for `engine` with `options` and runs it `runs`
// times; a second run that differs bitwise from the first is reported in
// `nondeterminism`. With 2 runs or more the last runs on the final code
// (Executable::settle): the jit's first run may have run its quick tier.
Outcome run_engine(const Engine& engine, const Program& program, const std::vector<Array>& inputs,
                   const CompileOptions& options, int runs = 1,
                   std::string* nondeterminism = nullptr);

// The interpreter on `program` with its reductions in `order`.
Outcome run_oracle(const Program& program, const std::vector<Array>& inputs,
                   const ReductionOrder& order);

// The oracle on one program and its inputs, evaluated once per declared
// order it is asked for (engines declaring the same order share it): what
// `strata check` and `strata bench` compare every engine against.
class OracleReplays {
public:
  OracleReplays(const Program& program, const std::vector<Array>& inputs)
      : program_(program), inputs_(inputs) {}
  // Records an outcome already computed in `order` (the canonical run).
  void add(const ReductionOrder& order, Outcome outcome);
  const Outcome& in(const ReductionOrder& order);

private:
  const Program& program_;
  const std::vector<Array>& inputs_;
  std::map<std::string, Outcome> by_order_; // by ReductionOrder::spec()
};

// Compares two outcomes: results bitwise, errors by kind and headline.
// Adds to `counts` the elements compared when both have results.
std::optional<std::string> compare_outcomes(const Outcome& expected, const Outcome& actual,
                                            ElementCounts* counts = nullptr);

// An engine's outcome judged by the oracle (oracle/order_judge.h): first the
// engine's declared order must be legal for every fold and scan; then the
// outcome is compared with the oracle's replay of that order: bitwise
// (compare_outcomes), or, when the engine's math library is not the
// interpreter's (math_ulps > 0), every float under sound bounds carried
// through the program (interpreter/bounds.h, oracle/bounded_compare.h); and
// where every fold and scan is exact, the replay must give the canonical
// order's results, or a function is reported as not associative.
std::optional<std::string> compare_with_oracle(const Program& program,
                                               const std::vector<Array>& inputs,
                                               OracleReplays& oracles, const Outcome& actual,
                                               ElementCounts* counts = nullptr);

struct DiffReport {
  bool agree = true;
  std::string disagreement; // one line when !agree
  Outcome oracle;           // the interpreter under the engine's declared order
  ElementCounts counts;
};

// The oracle against `engine` (run twice) on one program and its inputs.
// Whether arrays fit in memory depends on what else is live (the harness
// holds one run's results while the next runs), so when any run, the
// oracle's included, runs out of memory the check compares nothing: it
// agrees vacuously, with `counts.checks_out_of_memory` = 1 saying so. A
// fused run may skip an error that lies only in work fusion removes, or raise
// the later of two errors first, when the unfused run of the same engine
// raises the oracle's error (docs/testing.md).
DiffReport differential_check(const Program& program, const std::vector<Array>& inputs,
                              const Engine& engine, const CompileOptions& options);

} // namespace strata
