#include "oracle/differential.h"

#include "oracle/registry.h"

namespace strata {
namespace {

std::string describe(const Outcome& o) {
  if (o.error) return "error (" + std::string(error_kind_name(*o.error)) + "): " + o.message;
  return std::to_string(o.results.size()) + " result(s)";
}

bool same(const Outcome& a, const Outcome& b) {
  if (a.error || b.error) return a.error == b.error && a.message == b.message;
  if (a.results.size() != b.results.size()) return false;
  for (size_t i = 0; i < a.results.size(); ++i)
    if (!identical(a.results[i], b.results[i])) return false;
  return true;
}

} // namespace

Outcome run_engine(const Engine& engine, const Program& program, const std::vector<Array>& inputs,
                   const CompileOptions& options, int runs, std::string* nondeterminism) {
  Outcome first;
  std::unique_ptr<Executable> exe;
  try {
    exe = engine.compile(program, options);
  } catch (const Error& e) {
    first.error = e.kind();
    first.message = e.what();
    return first;
  }
  for (int r = 0; r < runs; ++r) {
    Outcome o;
    try {
      o.results = exe->run(inputs);
    } catch (const Error& e) {
      o.error = e.kind();
      o.message = e.what();
    }
    if (r == 0) {
      first = std::move(o);
    } else if (nondeterminism && nondeterminism->empty() && !same(first, o)) {
      *nondeterminism = "run " + std::to_string(r + 1) + " differs from run 1: " + describe(o) +
                        " vs " + describe(first);
    }
  }
  return first;
}

std::optional<std::string> compare_outcomes(const Outcome& expected, const Outcome& actual,
                                            const ProgramTolerance& tol) {
  if (expected.error || actual.error) {
    if (expected.error && actual.error && *expected.error == *actual.error) return std::nullopt;
    if (!tol.errors_exact) return std::nullopt; // a reassociated value decides
    return "expected " + describe(expected) + ", found " + describe(actual);
  }
  if (expected.results.size() != actual.results.size())
    return "expected " + describe(expected) + ", found " + describe(actual);
  for (size_t i = 0; i < expected.results.size(); ++i) {
    ResultTolerance exact;
    const ResultTolerance& t = i < tol.results.size() ? tol.results[i] : exact;
    if (auto diff = compare_with_tolerance(expected.results[i], actual.results[i], t))
      return (expected.results.size() > 1 ? "result " + std::to_string(i) + ": " : "") + *diff;
  }
  return std::nullopt;
}

DiffReport differential_check(const Program& program, const std::vector<Array>& inputs,
                              const Engine& engine, const CompileOptions& options) {
  DiffReport report;
  report.oracle = run_engine(*find_engine("interp"), program, inputs, CompileOptions{});
  report.tolerance = derive_tolerance(program, inputs);
  std::string nondeterminism;
  Outcome actual = run_engine(engine, program, inputs, options, 2, &nondeterminism);
  if (!nondeterminism.empty()) {
    report.agree = false;
    report.disagreement = engine.name() + " is not deterministic: " + nondeterminism;
    return report;
  }
  // Fusion never computes an element nobody reads (docs/fusion.md), so an
  // error raised only in such work may be skipped by a fused run; and a
  // delayed array's work, checks included, runs in its consumer, so when a
  // program fails in two places a fused run may raise the later failure
  // first. Both are accepted only when the same engine unfused, which
  // computes everything in program order, raises the oracle's error: the
  // engine's checks are then proven present.
  if (options.fusion && report.oracle.error && actual.error != report.oracle.error) {
    CompileOptions unfused = options;
    unfused.fusion = false;
    Outcome strict = run_engine(engine, program, inputs, unfused);
    if (strict.error == report.oracle.error) return report;
  }
  if (auto diff = compare_outcomes(report.oracle, actual, report.tolerance)) {
    report.agree = false;
    report.disagreement =
        engine.name() + (options.fusion ? "" : " (unfused)") + " vs interp: " + *diff;
  }
  return report;
}

} // namespace strata
