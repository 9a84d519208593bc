// strata bench FILE [name=in.npy ...] [--input SPEC ...] [--size n=N ...]
//                   [--engine NAME ...] [--no-fusion] [--threads N] [--min-time S]
//                   [--json out.json] [--plot out.svg] [-q]
//
// Benchmarks the user's own program: the interpreter and every available
// engine fused and unfused on the same inputs (files, generated from specs as
// `strata test` draws them, or the example directory's), each compiled once
// (timed apart), run once to warm up and to be checked against the oracle,
// then repeated until its median settles. Prints a table; writes Google
// Benchmark's JSON and an SVG plot on request (tools/bench_report.h).
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#if STRATA_TOOL_HAVE_TBB
#include <tbb/global_control.h>
#endif

#include "core/check.h"
#include "core/parser.h"
#include "oracle/differential.h"
#include "oracle/faults/faulty_engine.h"
#include "oracle/input_spec.h"
#include "oracle/registry.h"
#include "tools/bench_report.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/program_files.h"

namespace strata::tool {
namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

double cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
}

double bytes_of(const std::vector<Array>& arrays) {
  double b = 0;
  for (const Array& a : arrays)
    for (size_t l = 0; l < a.num_leaves(); ++l)
      b += double(scalar_size(a.leaf_kind(l))) * double(a.size());
  return b;
}

// Runs until at least `min_time` seconds and 3 runs have passed and the
// median of the last half of the runs is within 3% of the median of all
// (the time has settled), or 4 x min_time has passed (then not stable).
void time_runs(Executable& exe, const std::vector<Array>& inputs, double min_time, BenchRow& row,
               bool progress, bool tty) {
  auto start = Clock::now();
  double last_report = 0; // the first line after a while: short runs print none
  for (;;) {
    auto t0 = Clock::now();
    double c0 = cpu_ms();
    std::vector<Array> results = exe.run(inputs);
    double wall = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    row.cpu.push_back(cpu_ms() - c0);
    row.runs.push_back(wall);
    double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (progress && elapsed - last_report >= (tty ? 0.25 : 5.0)) {
      last_report = elapsed;
      std::ostringstream s;
      s.precision(1);
      s << std::fixed << "bench " << row.label() << ": " << row.runs.size() << " runs, " << elapsed
        << " s";
      std::cerr << (tty ? "\r" : "") << s.str() << (tty ? "\033[K" : "\n") << std::flush;
    }
    if (elapsed >= min_time && row.runs.size() >= 3) {
      BenchRow recent;
      recent.runs.assign(row.runs.begin() + long(row.runs.size() / 2), row.runs.end());
      double all = row.median();
      row.stable = all > 0 && std::abs(recent.median() - all) <= 0.03 * all;
      if (row.stable || elapsed >= 4 * min_time) break;
    }
  }
  if (progress && tty) std::cerr << "\r\033[K" << std::flush;
}

} // namespace

int bench_command(const Args& args) {
  po::options_description options(
      "usage: strata bench FILE [name=in.npy ...] [options]\n\n"
      "Times the program on the interpreter and on every available engine,\n"
      "fused and unfused, on the same inputs: NAME=FILE.npy arguments, inputs\n"
      "generated from specs (--input, or `;; input` lines opening the program;\n"
      "see `strata test --help`) at their largest sizes unless --size sets them,\n"
      "or the example directory beside the program. Each engine is compiled\n"
      "once (timed apart), run once to warm up and checked against the oracle,\n"
      "then run until its median settles. Exit 1 when an engine disagrees with\n"
      "the oracle.\n\n"
      "options");
  options.add_options()("input,i", po::value<std::vector<std::string>>(),
                        "an input spec (repeatable)")("size", po::value<std::vector<std::string>>(),
                                                      "a size variable's value, n=N (repeatable)")(
      "engine,e", po::value<std::vector<std::string>>(),
      "time only these engines (repeatable; interp included only when named)")(
      "no-fusion", "unfused runs only")("threads", po::value<int>(),
                                        "worker threads of the multicore engines")(
      "min-time", po::value<double>()->default_value(1.0),
      "seconds of runs per engine at least (up to 4x while the median moves)")(
      "seed", po::value<uint64_t>()->default_value(1), "seed of generated inputs")(
      "edge-values",
      "generated inputs with edge values too (1 in 8: 0, the ends, subnormals, infinities, "
      "NaN), as strata test draws them; default: typical values only")(
      "json", po::value<std::string>(), "write Google Benchmark's JSON here")(
      "plot", po::value<std::string>(), "write an SVG plot here")("quiet,q", "no progress line");
  add_math_option(options);
  ParsedArgs parsed = parse_args(args, options);
  if (parsed.help) {
    std::cout << options << "\n";
    return 0;
  }
  auto& vars = parsed.vars;
  MathMode math = math_option(vars);
  std::vector<std::string> assignments;
  std::string file_name;
  for (const std::string& p : parsed.positional) {
    if (p.find('=') != std::string::npos)
      assignments.push_back(p);
    else if (file_name.empty())
      file_name = p;
    else
      throw Error(ErrorKind::Usage, "bench: one program at a time, found `" + p + "` too");
  }
  if (file_name.empty()) throw Error(ErrorKind::Usage, "bench: expected a program file");
  double min_time = vars["min-time"].as<double>();
  if (!(min_time >= 0)) throw Error(ErrorKind::Usage, "bench: --min-time must be >= 0");

  fs::path file = file_name;
  std::string text = read_program_text(file);
  Program program = parse_program(text, file.string());
  check_program(program);

  // The inputs.
  BenchRun run;
  run.program = file.string();
  std::vector<Array> inputs;
  InputSpecs specs;
  parse_input_comments(text, file.string(), specs);
  if (vars.count("input")) {
    specs = {};
    for (const std::string& s : vars["input"].as<std::vector<std::string>>())
      parse_input_spec(s, "--input", specs);
  }
  if (!assignments.empty()) {
    inputs = load_inputs(program, assignments);
    for (const std::string& a : assignments)
      run.inputs += (run.inputs.empty() ? "" : " ") + a;
  } else if (!specs.arrays.empty() && !program.params.empty()) {
    bind_input_specs(specs, program);
    Sizes sizes = draw_sizes(specs, 0, 1); // trial 1: every size at its largest
    if (vars.count("size"))
      for (const std::string& s : vars["size"].as<std::vector<std::string>>()) {
        size_t eq = s.find('=');
        std::string name = s.substr(0, eq);
        if (eq == std::string::npos || !sizes.count(name))
          throw Error(ErrorKind::Usage,
                      "bench: --size " + s + ": expected n=N for a size variable");
        int64_t n = 0;
        try {
          size_t used = 0;
          n = std::stoll(s.substr(eq + 1), &used);
          if (used != s.size() - eq - 1 || n < 0) throw std::invalid_argument(s);
        } catch (const std::exception&) {
          throw Error(ErrorKind::Usage, "bench: --size " + s + ": the size must be a number >= 0");
        }
        sizes[name] = n;
      }
    bool edge_values = vars.count("edge-values") > 0;
    inputs = draw_inputs(specs, sizes, vars["seed"].as<uint64_t>(), 1,
                         edge_values ? Values::WithEdges : Values::Typical);
    run.inputs = sizes_text(sizes) + " (generated, seed " +
                 std::to_string(vars["seed"].as<uint64_t>()) +
                 (edge_values ? ", 1 in 8 an edge value: subnormals, infinities, NaN"
                              : ", typical values: uniform over each range, no edge values") +
                 ")";
  } else {
    inputs = load_sibling_inputs(program, file);
    run.inputs = program.params.empty() ? "none" : "the example directory's";
  }

#if STRATA_TOOL_HAVE_TBB
  std::unique_ptr<tbb::global_control> threads;
  if (vars.count("threads")) {
    run.threads = vars["threads"].as<int>();
    if (run.threads < 1) throw Error(ErrorKind::Usage, "bench: --threads must be >= 1");
    threads = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                    size_t(run.threads));
  }
#else
  if (vars.count("threads"))
    throw Error(ErrorKind::Usage, "bench: --threads needs the tbb library, not in this build");
#endif

  std::vector<const Engine*> engines;
  if (vars.count("engine")) {
    for (const std::string& name : vars["engine"].as<std::vector<std::string>>()) {
      const Engine* e = faults::find_any_engine(name);
      if (!e)
        throw Error(ErrorKind::Usage, "unknown engine `" + name +
                                          "`; available: " + engine_names() + ", faulty:FAULT");
      engines.push_back(e);
    }
  } else {
    engines = all_engines();
  }
  std::vector<std::jthread> preparing = prepare_engines(engines); // overlaps the oracle's run
  bool progress = !vars.count("quiet"), tty = isatty(STDERR_FILENO);
  std::cout << "bench " << run.program << ": inputs " << run.inputs << ", at least " << min_time
            << " s per engine\n";

  // The oracle once per order an engine declares, for the warm-up check.
  OracleReplays oracles(program, inputs);
  auto oracle_in = [&](const ReductionOrder& order) -> const Outcome& { return oracles.in(order); };
  bool disagree = false;
  double input_bytes = bytes_of(inputs);
  for (const Engine* engine : engines) {
    std::string why;
    if (!engine->available(why)) {
      std::cout << "skip  " << engine->name() << ": " << why << "\n";
      continue;
    }
    bool interp = engine->name() == "interp";
    std::vector<std::string> modes{"on", "off"};
    if (interp)
      modes = {"-"};
    else if (vars.count("no-fusion"))
      modes = {"off"};
    for (const std::string& fusion : modes) {
      BenchRow row;
      row.engine = engine->name();
      row.fusion = fusion;
      CompileOptions o;
      o.fusion = fusion != "off";
      o.math = math;
      try {
        auto t0 = Clock::now();
        std::unique_ptr<Executable> exe = engine->compile(program, o);
        exe->settle(); // the code checked and timed below is the final code (jit tiers)
        row.compile_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        Outcome actual;
        actual.order = exe->reduction_order();
        actual.math_ulps = exe->math_ulps();
        actual.results = exe->run(inputs); // the warm-up
        row.bytes = input_bytes + bytes_of(actual.results);
        if (interp) {
          row.verified = "oracle";
        } else {
          ElementCounts counts;
          auto diff = compare_with_oracle(program, inputs, oracles, actual, &counts);
          row.verified = diff ? "NO: " + *diff : "yes";
          disagree = disagree || diff;
        }
        time_runs(*exe, inputs, min_time, row, progress, tty);
      } catch (const Error& e) {
        row.verified = std::string(error_kind_name(e.kind())) + " error: " + e.message();
        row.runs.clear();
        row.cpu.clear();
        // The oracle raising the same error is agreement; anything else is not.
        const Outcome& oracle = oracle_in(ReductionOrder::canonical());
        disagree = disagree || oracle.error != e.kind() || oracle.headline != e.headline();
      }
      run.rows.push_back(std::move(row));
    }
  }
  print_bench_table(run, std::cout);
  if (vars.count("json")) {
    write_bench_json(run, vars["json"].as<std::string>());
    std::cout << "wrote " << vars["json"].as<std::string>() << "\n";
  }
  if (vars.count("plot")) {
    write_bench_svg(run, vars["plot"].as<std::string>());
    std::cout << "wrote " << vars["plot"].as<std::string>() << "\n";
  }
  return disagree ? 1 : 0;
}

} // namespace strata::tool
