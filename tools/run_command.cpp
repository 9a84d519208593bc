// strata run FILE [name=in.npy ...] [-o out.npy] [--engine NAME] [--trace [--trace-filter F]]
#include <chrono>
#include <iostream>

#include "core/array_format.h"
#include "interpreter/interpreter.h"
#include "oracle/registry.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/program_files.h"
#include "tools/views.h"

namespace strata::tool {
namespace {
// How many arrays a program of result type `t` returns (tuples flattened).
size_t result_count(const Type& t) {
  if (!t.is_tuple()) return 1;
  size_t n = 0;
  for (const Type& e : t.elems())
    n += result_count(e);
  return n;
}
} // namespace

int run_command(const Args& args) {
  po::options_description options(
      "usage: strata run FILE [name=in.npy ...] [options]\n\n"
      "Runs a program on .npy inputs (one NAME=FILE.npy per parameter; without\n"
      "any, they are read from the directory FILE-without-.strata/NAME.npy).\n"
      "Small results are printed in full, large ones summarised; -o saves them\n"
      "(a tuple of results goes to out.0.npy, out.1.npy, ...).\n\noptions");
  const std::string engine_help = "engine to run on: " + engine_names();
  options.add_options()                                                                    //
      ("engine,e", po::value<std::string>()->default_value("interp"), engine_help.c_str()) //
      ("output,o", po::value<std::string>(), "write the result(s) to this .npy file")      //
      ("trace", "print every collective's result and trace/atrace values on stderr "
                "(interpreter)") //
      ("trace-filter", po::value<std::string>(),
       "with --trace: only this source LINE number, or this OP (map, fold, trace, ...) "
       "or trace label");
  Views::add_options(options);
  ParsedArgs parsed = parse_args(args, options);
  if (parsed.help) {
    std::cout << options << "\n";
    return 0;
  }
  if (parsed.positional.empty()) throw Error(ErrorKind::Usage, "run: expected a program FILE");
  const auto start = std::chrono::steady_clock::now();

  std::string file = parsed.positional.front();
  std::vector<std::string> assignments(parsed.positional.begin() + 1, parsed.positional.end());
  std::string engine_name = parsed.vars["engine"].as<std::string>();
  const Engine* engine = find_engine(engine_name);
  if (!engine)
    throw Error(ErrorKind::Usage,
                "unknown engine `" + engine_name + "`; available: " + engine_names());
  std::string why;
  if (!engine->available(why))
    throw Error(ErrorKind::Input, "engine `" + engine_name + "` is not available: " + why);
  // The engine's set-up overlaps with parsing and reading the inputs.
  std::jthread preparing = engine->prepare();

  Views views = Views::from(parsed.vars);
  PhaseTimes times{engine_name, {}};
  Program program = Views::load_timed(file, times);
  std::optional<KernelGraph> graph = views.fuse(program, times);
  std::vector<std::string> input_paths = assignments.empty() && !program.params.empty()
                                             ? sibling_input_files(program, file)
                                             : input_files(program, assignments);
  // An engine that reads by rows (mpi) gets the files, opened and checked
  // here and read in its run; the others, the arrays read whole.
  bool by_rows = engine->reads_files_by_rows() && !parsed.vars.count("trace");
  std::vector<NpyRowsReader> files;
  std::vector<Array> inputs;
  times.time("read inputs", [&] {
    if (by_rows)
      files = open_inputs_by_rows(program, input_paths);
    else
      inputs = read_inputs(program, input_paths);
  });
  std::vector<std::string> outputs;
  if (by_rows && parsed.vars.count("output"))
    outputs = result_paths(result_count(program.result), parsed.vars["output"].as<std::string>());
  std::vector<Array> results;
  std::map<int, KernelTiming> kernels;
  std::unique_ptr<Executable> exe;
  if (parsed.vars.count("trace-filter") && !parsed.vars.count("trace"))
    throw Error(ErrorKind::Usage, "--trace-filter needs --trace");
  if (parsed.vars.count("trace")) {
    if (engine_name != "interp")
      throw Error(ErrorKind::Usage, "--trace needs the interpreter (--engine interp)");
    InterpreterOptions opts;
    opts.trace = &std::cerr;
    opts.trace_collectives = true;
    if (parsed.vars.count("trace-filter"))
      opts.trace_filter = parsed.vars["trace-filter"].as<std::string>();
    results = interpret(program, inputs, opts);
  } else {
    exe = times.time("compile", [&] { return engine->compile(program, views.compile_options()); });
    kernels = Views::compile_details(exe->compile_report(), times);
    results = times.time(
        "run", [&] { return by_rows ? exe->run_files(files, outputs) : exe->run(inputs); });
    for (const auto& [id, ms] : exe->kernel_run_ms())
      kernels[id].run_ms = ms;
    for (const auto& [id, x] : exe->kernel_exchange())
      kernels[id].exchange = x;
  }

  if (!outputs.empty()) { // written by the engine's run
    for (const std::string& path : outputs)
      if (!secondary_rank()) std::cerr << "wrote " << path << "\n";
  } else if (parsed.vars.count("output")) {
    std::vector<std::string> written = times.time("write outputs", [&] {
      return write_results(results, parsed.vars["output"].as<std::string>());
    });
    for (const std::string& path : written)
      if (!secondary_rank()) std::cerr << "wrote " << path << "\n";
  } else {
    times.time("print results", [&] {
      for (size_t i = 0; i < results.size(); ++i) {
        if (results.size() > 1)
          std::cout << "result " << i << ": " << describe_array(results[i]) << "\n";
        std::cout << format_array(results[i]) << "\n";
      }
      std::cout.flush();
    });
  }
  // The jit's optimised compiles still queued (docs/jit.md "Tiers"): waited
  // for here, in a phase of their own, so that they reach the disk cache and
  // a failure among them is reported.
  if (exe) times.time("optimised tier", [&] { exe->settle(); });
  times.wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  views.finish(file, graph, {times}, kernels);
  return 0;
}

} // namespace strata::tool
