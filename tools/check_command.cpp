// strata check FILE|DIR ... [name=in.npy ...] [--engine NAME] [--rtol R --atol A]
//
// Runs each program on the interpreter (the oracle) and on every available
// engine, compares every engine with the oracle (bitwise, the oracle replaying
// the engine's order), and compares the oracle with the expected results
// stored beside the program, if any: inside the bounds of every legal
// evaluation (interpreter/bounds.h, Freedoms::numpy()), or within the user's
// --rtol/--atol.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>

#include <map>

#include "interpreter/bounds.h"
#include "oracle/bounded_compare.h"
#include "oracle/differential.h"
#include "oracle/registry.h"
#include "tools/bundle_replay.h"
#include "tools/check_table.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/program_files.h"
#include "tools/views.h"

namespace strata::tool {
namespace fs = std::filesystem;
namespace {

std::vector<fs::path> program_files(const std::vector<std::string>& targets) {
  std::vector<fs::path> files;
  for (const std::string& t : targets) {
    if (fs::is_directory(t)) {
      std::vector<fs::path> found;
      for (const auto& entry : fs::directory_iterator(t))
        if (entry.path().extension() == ".strata") found.push_back(entry.path());
      std::sort(found.begin(), found.end());
      if (found.empty())
        throw Error(ErrorKind::Input, t + ": no .strata programs in this directory");
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::exists(t)) {
      files.emplace_back(t);
    } else {
      throw Error(ErrorKind::Input, t + ": no such file or directory");
    }
  }
  return files;
}

// How the interpreter's results are compared with the expected files: by
// default with the bounds of every legal evaluation (interpreter/bounds.h)
// given NumPy's freedoms (any summation order, transcendentals within 4
// ulps); with --rtol/--atol, |x - e| <= atol + rtol * |e| instead.
struct ExpectedPolicy {
  bool user_tolerance = false;
  double rtol = 0, atol = 0;
};

// Every result against its expected file: counts summed, failures listed.
BoundedComparison compare_expected(const Program& program, const std::vector<Array>& inputs,
                                   const std::vector<Array>& expected,
                                   const std::vector<Array>& oracle, const ExpectedPolicy& policy) {
  BoundedComparison all;
  std::vector<BoundedArray> bounds;
  if (!policy.user_tolerance) bounds = bound_program(program, inputs, Freedoms::numpy());
  for (size_t i = 0; i < expected.size(); ++i) {
    BoundedComparison c = policy.user_tolerance
                              ? compare_within(oracle[i], expected[i], policy.rtol, policy.atol)
                              : compare_with_bounds(bounds[i], expected[i]);
    all.counts += c.counts;
    all.failures += c.failures;
    for (const std::string& m : c.messages)
      all.messages.push_back((expected.size() > 1 ? "result " + std::to_string(i) + ": " : "") + m);
  }
  return all;
}

double millis_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

struct Tally {
  int runs = 0, failures = 0;
  CheckTable table;
  // The orders the engines declared (besides the oracle's canonical one),
  // each with the engines that ran in it: said once, under the table.
  std::map<std::string, std::vector<std::string>> orders;
  void ran_in(const ReductionOrder& order, const std::string& engine) {
    if (order == ReductionOrder::canonical()) return;
    std::vector<std::string>& engines = orders[order.describe()];
    if (std::find(engines.begin(), engines.end(), engine) == engines.end())
      engines.push_back(engine);
  }
  void report(bool ok, const fs::path& file, const std::string& what, const std::string& detail) {
    ++runs;
    failures += !ok;
    (ok ? std::cout : std::cerr) << (ok ? "ok    " : "FAIL  ") << file.string() << "  " << what
                                 << (detail.empty() ? "" : "  " + detail) << "\n";
  }
};

void check_program(const fs::path& file, const std::vector<std::string>& assignments,
                   const std::vector<const Engine*>& engines, const Views& views,
                   const ExpectedPolicy& policy, Tally& tally) {
  std::vector<Array> oracle;
  Program program;
  try {
    std::vector<PhaseTimes> times{PhaseTimes{"interp", {}}};
    program = Views::load_timed(file, times[0]);
    std::optional<KernelGraph> graph = views.fuse(program, times[0]);
    std::vector<Array> inputs = assignments.empty() ? load_sibling_inputs(program, file)
                                                    : load_inputs(program, assignments);
    auto start = std::chrono::steady_clock::now();
    auto oracle_exe = times[0].time("compile", [&] {
      return find_engine("interp")->compile(program, CompileOptions{views.fusion});
    });
    oracle = times[0].time("run", [&] { return oracle_exe->run(inputs); });
    double ms = millis_since(start);
    // The oracle in each order an engine declares (core/reduction_order.h),
    // evaluated once per order.
    const ReductionOrder oracle_order = ReductionOrder::canonical();
    OracleReplays replays(program, inputs);
    Outcome canonical;
    canonical.order = oracle_order;
    canonical.results = oracle;
    replays.add(oracle_order, std::move(canonical));
    bool expected_diff = false;
    std::string expected_word = "yes (no expected output)";
    if (auto expected = load_expected(file, oracle.size())) {
      BoundedComparison c = compare_expected(program, inputs, *expected, oracle, policy);
      expected_diff = !c.ok();
      expected_word = "yes (expected)";
      std::string counts = c.counts.str();
      tally.report(c.ok(), file, "interp vs expected",
                   c.ok() ? "(" + counts + "; " + std::to_string(ms) + " ms)"
                          : std::to_string(c.failures) + " element(s) differ (" + counts + ")");
      for (const std::string& m : c.messages)
        std::cerr << "      " << m << "\n";
      if (!c.ok()) std::cerr << explain_difference(program, inputs, c.messages[0]);
    } else {
      tally.report(true, file, "interp", "(no expected output; " + std::to_string(ms) + " ms)");
    }
    tally.table.add(file.string(), "interp", "-", expected_diff ? "NO (expected)" : expected_word,
                    times[0].ms_of("compile"), times[0].ms_of("run"));
    // Every engine fused and unfused (only unfused with --no-fusion).
    std::vector<bool> modes =
        views.fusion ? std::vector<bool>{true, false} : std::vector<bool>{false};
    for (const Engine* engine : engines) {
      if (engine->name() == "interp") continue;
      for (bool fusion : modes) {
        std::string label = engine->name() + (fusion ? "" : " (unfused)");
        // The engine's run, and the oracle replaying the order it declares:
        // every element bitwise, an error by kind and headline.
        Outcome actual;
        CompileOptions options = views.compile_options();
        options.fusion = fusion;
        PhaseTimes& t = times.emplace_back(PhaseTimes{label, {}});
        std::unique_ptr<Executable> exe;
        try {
          exe = t.time("compile", [&] { return engine->compile(program, options); });
          actual.order = exe->reduction_order();
          actual.math_ulps = exe->math_ulps();
          actual.results = t.time("run", [&] { return exe->run(inputs); });
        } catch (const Error& e) {
          record_error(actual, e);
        }
        ElementCounts counts;
        auto diff = compare_with_oracle(program, inputs, replays, actual, &counts);
        tally.ran_in(actual.order, engine->name());
        tally.report(!diff, file, label + " vs interp",
                     diff ? *diff + " (oracle in the " + actual.order.describe() + " order)"
                          : "(" + counts.str() + ")");
        tally.table.add(file.string(), engine->name(), fusion ? "on" : "off",
                        diff ? (actual.error ? "NO (error)" : "NO") : "yes", t.ms_of("compile"),
                        t.ms_of("run"));
        if (diff && !actual.error) std::cerr << explain_difference(program, inputs, *diff);
        // An engine that ran a quick compile first (the jit's tiers) runs
        // again on its final code, checked the same way.
        Outcome final_run;
        final_run.order = actual.order;
        final_run.math_ulps = actual.math_ulps;
        try {
          if (!exe || !exe->settle()) continue;
          final_run.results = exe->run(inputs);
        } catch (const Error& e) {
          record_error(final_run, e);
        }
        ElementCounts final_counts;
        auto final_diff = compare_with_oracle(program, inputs, replays, final_run, &final_counts);
        tally.report(!final_diff, file, label + " (optimised tier) vs interp",
                     final_diff ? *final_diff : "(" + final_counts.str() + ")");
        if (final_diff)
          tally.table.add(file.string(), engine->name(), fusion ? "on" : "off",
                          "NO (optimised tier)", -1, -1);
      }
    }
    views.finish(file.string(), graph, times);
  } catch (const Error& e) {
    tally.report(false, file, "interp", e.what());
    tally.table.add(file.string(), "interp", "-", "NO (error)", -1, -1);
  }
}

} // namespace

int check_command(const Args& args) {
  po::options_description options(
      "usage: strata check FILE|DIR ... [name=in.npy ...] [options]\n\n"
      "Runs each program on the interpreter and on every available engine and\n"
      "compares: each engine with the interpreter, and the interpreter with the\n"
      "expected results in FILE-without-.strata/expected[.K].npy when present:\n"
      "every element inside the bounds of every legal evaluation (any summation\n"
      "order, transcendentals within 4 ulps), or within --rtol/--atol.\n"
      "Inputs default to FILE-without-.strata/NAME.npy. Exit 1 on any failure.\n\n"
      "options");
  options.add_options()("engine,e", po::value<std::vector<std::string>>(),
                        "check only these engines (repeatable)")(
      "rtol", po::value<double>(),
      "compare with the expected files as |x - e| <= atol + rtol*|e| instead of bounds")(
      "atol", po::value<double>(), "absolute tolerance for --rtol (default 0)");
  Views::add_options(options);
  ParsedArgs parsed = parse_args(args, options);
  if (parsed.help) {
    std::cout << options << "\n";
    return 0;
  }
  std::vector<std::string> targets, assignments;
  for (const std::string& a : parsed.positional)
    (a.find('=') != std::string::npos ? assignments : targets).push_back(a);
  if (targets.empty())
    throw Error(ErrorKind::Usage, "check: expected at least one program FILE or DIR");
  // A counterexample bundle of the differential harness (oracle/bundle.h).
  if (targets.size() == 1 && assignments.empty() && is_bundle_target(targets[0]))
    return replay_bundle_command(targets[0]);

  std::vector<const Engine*> engines = all_engines();
  if (parsed.vars.count("engine")) {
    engines.clear();
    for (const std::string& name : parsed.vars["engine"].as<std::vector<std::string>>()) {
      const Engine* e = find_engine(name);
      if (!e)
        throw Error(ErrorKind::Usage,
                    "unknown engine `" + name + "`; available: " + engine_names());
      engines.push_back(e);
    }
  }
  // An engine this machine cannot run is said once, not per program.
  std::vector<std::string> skipped;
  std::erase_if(engines, [&](const Engine* e) {
    std::string why;
    if (e->available(why)) return false;
    skipped.push_back(e->name() + ": " + why);
    return true;
  });
  for (const std::string& s : skipped)
    std::cout << "skip  " << s << "\n";
  // The engines' set-up overlaps with finding, parsing and reading the programs.
  std::vector<std::jthread> preparing = prepare_engines(engines);
  std::vector<fs::path> files = program_files(targets);
  if (!assignments.empty() && files.size() != 1)
    throw Error(ErrorKind::Usage, "check: NAME=FILE.npy inputs need exactly one program");

  Views views = Views::from(parsed.vars);
  if ((!views.dump_dot.empty() || !views.report.empty()) && files.size() != 1)
    throw Error(ErrorKind::Usage, "check: --dump-dot and --report need exactly one program");
  ExpectedPolicy policy;
  if (parsed.vars.count("rtol") || parsed.vars.count("atol")) {
    policy.user_tolerance = true;
    if (parsed.vars.count("rtol")) policy.rtol = parsed.vars["rtol"].as<double>();
    if (parsed.vars.count("atol")) policy.atol = parsed.vars["atol"].as<double>();
    if (!(policy.rtol >= 0) || !(policy.atol >= 0))
      throw Error(ErrorKind::Usage, "check: --rtol and --atol must be non-negative numbers");
  }
  Tally tally;
  for (const fs::path& file : files)
    check_program(file, assignments, engines, views, policy, tally);
  std::cout << "\n";
  tally.table.print(std::cout);
  // The interpreter replayed each engine's declared order (docs/testing.md).
  for (const auto& [order, names] : tally.orders) {
    std::cout << "\norder of ";
    for (size_t i = 0; i < names.size(); ++i)
      std::cout << (i ? ", " : "") << names[i];
    std::cout << ": " << order;
  }
  for (const std::string& s : skipped)
    std::cout << "\nnot checked: " << s;
  std::cout << "\n\n"
            << files.size() << " program(s), " << tally.runs << " check(s), " << tally.failures
            << " failure(s)\n";
  return tally.failures == 0 ? 0 : 1;
}

} // namespace strata::tool
