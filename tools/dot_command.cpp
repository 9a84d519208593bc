// strata dot FILE [--no-fusion] [-o out.dot]: the kernel graph as Graphviz;
// and the fusion views shared by `run` and `check` (tools/views.h).
#include <fstream>
#include <iostream>
#include <sstream>

#include "core/atomic_file.h"
#include "core/check.h"
#include "core/parser.h"
#include "fusion/dot.h"
#include "fusion/fuse.h"
#include "tools/commands.h"
#include "tools/program_files.h"
#include "tools/views.h"

namespace strata::tool {

void Views::add_options(po::options_description& options) {
  options.add_options()                                                                    //
      ("no-fusion", "run every operation as its own kernel (engines that fuse)")           //
      ("dump-dot", po::value<std::string>(), "write the kernel graph as Graphviz to FILE") //
      ("dump-phases", "print the time of each phase (parse, check, fuse, compile, run) on "
                      "stderr") //
      ("report", po::value<std::string>(),
       "write phase times and one entry per kernel as JSON to FILE");
  add_math_option(options);
}

Views Views::from(const po::variables_map& vars) {
  Views v;
  v.fusion = !vars.count("no-fusion");
  v.math = math_option(vars);
  v.dump_phases = vars.count("dump-phases") > 0;
  if (vars.count("dump-dot")) v.dump_dot = vars["dump-dot"].as<std::string>();
  if (vars.count("report")) v.report = vars["report"].as<std::string>();
  return v;
}

Program Views::load_timed(const std::filesystem::path& file, PhaseTimes& times) {
  // Reading the file is part of the parse phase: every step is timed.
  Program p = times.time("parse", [&] {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw Error(ErrorKind::Input, file.string() + ": cannot open program file");
    std::ostringstream text;
    text << in.rdbuf();
    return parse_program(text.str(), file.string());
  });
  times.time("check", [&] { check_program(p); });
  return p;
}

std::optional<KernelGraph> Views::fuse(const Program& program, PhaseTimes& times) const {
  if (!need_graph()) return std::nullopt;
  return times.time("fuse", [&] { return build_kernel_graph(program, FusionOptions{fusion}); });
}

std::map<int, KernelTiming> Views::compile_details(const CompileReport& report, PhaseTimes& times) {
  for (const auto& [phase, ms] : report.phases)
    times.phases.emplace_back("compile." + phase, ms);
  std::map<int, KernelTiming> kernels;
  for (const KernelCompileInfo& k : report.kernels) {
    KernelTiming& t = kernels[k.kernel];
    t.compile_ms = k.compile_ms;
    t.cache = k.cache;
  }
  return kernels;
}

void Views::finish(const std::string& file, const std::optional<KernelGraph>& graph,
                   const std::vector<PhaseTimes>& engines,
                   const std::map<int, KernelTiming>& kernels) const {
  // Under mpirun rank 0 alone writes and prints them (its own exchange).
  if (!graph || secondary_rank()) return;
  if (!dump_dot.empty()) write_file_atomically(dump_dot, kernel_graph_dot(*graph, file));
  if (dump_phases) std::cerr << phases_text(engines) << exchange_text(*graph, kernels);
  if (!report.empty()) write_file_atomically(report, report_json(file, *graph, engines, kernels));
}

int dot_command(const Args& args) {
  po::options_description options(
      "usage: strata dot FILE [--no-fusion] [-o out.dot]\n\n"
      "Prints the kernel graph of a program as Graphviz (render it with\n"
      "`dot -Tsvg`): one box per kernel with the source operations fused into\n"
      "it, arrows for the arrays passed between kernels.\n\noptions");
  options.add_options()                               //
      ("no-fusion", "every operation its own kernel") //
      ("output,o", po::value<std::string>(), "write to this file instead of stdout");
  ParsedArgs parsed = parse_args(args, options);
  if (parsed.help) {
    std::cout << options << "\n";
    return 0;
  }
  if (parsed.positional.size() != 1)
    throw Error(ErrorKind::Usage, "dot: expected exactly one program FILE");
  const std::string& file = parsed.positional.front();
  PhaseTimes times;
  Program program = Views::load_timed(file, times);
  KernelGraph graph = build_kernel_graph(program, FusionOptions{!parsed.vars.count("no-fusion")});
  std::string dot = kernel_graph_dot(graph, file);
  if (parsed.vars.count("output"))
    write_file_atomically(parsed.vars["output"].as<std::string>(), dot);
  else
    std::cout << dot;
  return 0;
}

} // namespace strata::tool
