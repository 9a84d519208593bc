#include "oracle/differential.h"

#include "interpreter/bounds.h"
#include "interpreter/interpreter.h"
#include "oracle/bounded_compare.h"
#include "oracle/compare.h"
#include "oracle/order_judge.h"

namespace strata {
namespace {

std::string describe(const Outcome& o) {
  if (o.error) return "error (" + std::string(error_kind_name(*o.error)) + "): " + o.headline;
  return std::to_string(o.results.size()) + " result(s)";
}

bool same_error(const Outcome& a, const Outcome& b) {
  return a.error == b.error && a.headline == b.headline;
}

bool same(const Outcome& a, const Outcome& b) {
  if (a.error || b.error) return same_error(a, b);
  if (a.results.size() != b.results.size()) return false;
  for (size_t i = 0; i < a.results.size(); ++i)
    if (!identical(a.results[i], b.results[i])) return false;
  return true;
}

} // namespace

void record_error(Outcome& o, const Error& e) {
  o.error = e.kind();
  o.headline = e.headline();
  o.message = e.what();
  o.out_of_memory = Buffer::out_of_memory(e);
}

std::string ElementCounts::str() const {
  return std::to_string(total()) + " elements: " + std::to_string(bitwise) + " bitwise, " +
         std::to_string(bounded) + " under a bound, " + std::to_string(not_compared) +
         " not compared" +
         (checks_out_of_memory ? "; " + std::to_string(checks_out_of_memory) +
                                     " check(s) not compared: out of memory"
                               : "");
}

Outcome run_engine(const Engine& engine, const Program& program, const std::vector<Array>& inputs,
                   const CompileOptions& options, int runs, std::string* nondeterminism) {
  Outcome first;
  first.order = options.order;
  std::unique_ptr<Executable> exe;
  try {
    exe = engine.compile(program, options);
  } catch (const Error& e) {
    record_error(first, e);
    return first;
  }
  for (int r = 0; r < runs; ++r) {
    Outcome o;
    o.order = exe->reduction_order();
    o.math_ulps = exe->math_ulps();
    try {
      // The last run on the final code (the jit's optimised tier, where the
      // first ran its quick tier: docs/jit.md "Tiers"), so that comparing
      // the runs compares both.
      if (r > 0 && r == runs - 1) exe->settle();
      o.results = exe->run(inputs);
    } catch (const Error& e) {
      record_error(o, e);
    }
    if (r == 0) {
      first = std::move(o);
    } else if (o.out_of_memory) {
      first.out_of_memory = true;
    } else if (nondeterminism && nondeterminism->empty() && !first.out_of_memory &&
               !same(first, o)) {
      *nondeterminism = "run " + std::to_string(r + 1) + " differs from run 1: " + describe(o) +
                        " vs " + describe(first);
    }
  }
  return first;
}

Outcome run_oracle(const Program& program, const std::vector<Array>& inputs,
                   const ReductionOrder& order) {
  Outcome o;
  o.order = order;
  InterpreterOptions options;
  options.order = order;
  try {
    o.results = interpret(program, inputs, options);
  } catch (const Error& e) {
    record_error(o, e);
  }
  return o;
}

void OracleReplays::add(const ReductionOrder& order, Outcome outcome) {
  by_order_[order.spec()] = std::move(outcome);
}

const Outcome& OracleReplays::in(const ReductionOrder& order) {
  auto it = by_order_.find(order.spec());
  if (it == by_order_.end())
    it = by_order_.emplace(order.spec(), run_oracle(program_, inputs_, order)).first;
  return it->second;
}

std::optional<std::string> compare_outcomes(const Outcome& expected, const Outcome& actual,
                                            ElementCounts* counts) {
  if (expected.error || actual.error) {
    if (same_error(expected, actual)) return std::nullopt;
    return "expected " + describe(expected) + ", found " + describe(actual);
  }
  if (expected.results.size() != actual.results.size())
    return "expected " + describe(expected) + ", found " + describe(actual);
  for (size_t i = 0; i < expected.results.size(); ++i) {
    if (auto diff = compare_bitwise(expected.results[i], actual.results[i]))
      return (expected.results.size() > 1 ? "result " + std::to_string(i) + ": " : "") + *diff;
    if (counts)
      counts->bitwise += expected.results[i].size() * int64_t(expected.results[i].num_leaves());
  }
  return std::nullopt;
}

namespace {

// The engine's outcome against the oracle's replay of its order.
std::optional<std::string> compare_replayed(const Program& program,
                                            const std::vector<Array>& inputs, const Outcome& oracle,
                                            const Outcome& actual, ElementCounts* counts) {
  if (actual.math_ulps == 0 || oracle.error || actual.error)
    return compare_outcomes(oracle, actual, counts);
  if (oracle.results.size() != actual.results.size())
    return compare_outcomes(oracle, actual, counts);
  Freedoms freedoms;
  freedoms.order = actual.order;
  freedoms.math_ulps = actual.math_ulps;
  std::vector<BoundedArray> bounds = bound_program(program, inputs, freedoms);
  for (size_t i = 0; i < bounds.size() && i < actual.results.size(); ++i) {
    BoundedComparison c = compare_with_bounds(bounds[i], actual.results[i]);
    if (counts) *counts += c.counts;
    if (!c.ok())
      return (bounds.size() > 1 ? "result " + std::to_string(i) + ": " : "") +
             (c.messages.empty() ? std::string("outside its bounds") : c.messages[0]) +
             " (math within " + std::to_string(actual.math_ulps) + " ulps)";
  }
  return std::nullopt;
}

// Judgement 2 of oracle/order_judge.h: where every fold and scan is exact, a
// legal order gives the canonical order's results unless a function is not
// associative.
std::optional<std::string> judge_against_canonical(const Program& program, OracleReplays& oracles,
                                                   const ReductionOrder& order) {
  if (!judged_against_canonical(program, order)) return std::nullopt;
  const Outcome& replay = oracles.in(order);
  const Outcome& canonical = oracles.in(ReductionOrder::canonical());
  if (replay.error || canonical.error || replay.out_of_memory || canonical.out_of_memory)
    return std::nullopt; // an error inside a function may come from other combinations
  if (!compare_outcomes(canonical, replay)) return std::nullopt;
  return not_associative(program, order);
}

} // namespace

std::optional<std::string> compare_with_oracle(const Program& program,
                                               const std::vector<Array>& inputs,
                                               OracleReplays& oracles, const Outcome& actual,
                                               ElementCounts* counts) {
  if (auto illegal = illegal_grouping(program, actual.order)) return *illegal;
  if (auto diff = compare_replayed(program, inputs, oracles.in(actual.order), actual, counts))
    return diff;
  return judge_against_canonical(program, oracles, actual.order);
}

DiffReport differential_check(const Program& program, const std::vector<Array>& inputs,
                              const Engine& engine, const CompileOptions& options) {
  DiffReport report;
  std::string nondeterminism;
  Outcome actual = run_engine(engine, program, inputs, options, 2, &nondeterminism);
  OracleReplays oracles(program, inputs);
  report.oracle = oracles.in(actual.order);
  std::string who = engine.name() + (options.fusion ? "" : " (unfused)");
  if (actual.out_of_memory || report.oracle.out_of_memory) {
    report.counts.checks_out_of_memory = 1;
    return report;
  }
  if (!nondeterminism.empty()) {
    report.agree = false;
    report.disagreement = who + " is not deterministic: " + nondeterminism;
    return report;
  }
  // Fusion never computes an element nobody reads (docs/fusion.md), so an
  // error raised only in such work may be skipped by a fused run; and a
  // delayed array's work, checks included, runs in its consumer, so when a
  // program fails in two places a fused run may raise the later failure
  // first. Both are accepted only when the same engine unfused, which
  // computes everything in program order, raises the oracle's error: the
  // engine's checks are then proven present.
  if (options.fusion && report.oracle.error && !same_error(actual, report.oracle)) {
    CompileOptions unfused = options;
    unfused.fusion = false;
    if (same_error(run_engine(engine, program, inputs, unfused), report.oracle)) return report;
  }
  if (auto diff = compare_with_oracle(program, inputs, oracles, actual, &report.counts)) {
    report.agree = false;
    report.disagreement = who + " vs interp (" + actual.order.describe() + " order): " + *diff;
  }
  return report;
}

} // namespace strata
