// strata compile FILE [--engine NAME] [--arch sm_XX]: compile a program
// without running it, filling the kernel cache, and list each kernel's
// compile time and cache outcome. With --arch it compiles for that device
// architecture without one (CompileOptions::target; the cuda engine: NVRTC
// runs on the CPU, docs/cuda.md). Engines are reached through the registry.
#include <chrono>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "core/error.h"
#include "fusion/fuse.h"
#include "oracle/registry.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/views.h"

namespace strata::tool {
namespace {

std::string ms(double v) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(2) << v << " ms";
  return s.str();
}

} // namespace

int compile_command(const Args& args) {
  po::options_description options(
      "usage: strata compile FILE [--engine NAME] [--arch sm_XX] [options]\n\n"
      "Compiles a program without running it (no inputs needed) and lists each\n"
      "kernel's compile time and cache outcome: `hit (memory)`, `hit (disk)` or\n"
      "`miss: <why>`. Compiled kernels go to the disk cache (see `strata cache`),\n"
      "so a later run or compile of the same program compiles nothing.\n"
      "With the cuda engine, --arch sm_XX compiles for that GPU architecture\n"
      "without a GPU or driver (NVRTC runs on the CPU) and the last line says how\n"
      "many NVRTC compiles ran; without --arch the present GPU's architecture\n"
      "is used and the module is loaded.\n\noptions");
  options.add_options()                                                                      //
      ("engine,e", po::value<std::string>()->default_value("cuda"), "engine to compile for") //
      ("arch", po::value<std::string>(), "cuda: the GPU architecture (sm_80, sm_90, ...)");
  Views::add_options(options);
  ParsedArgs parsed = parse_args(args, options);
  if (parsed.help) {
    std::cout << options << "\n";
    return 0;
  }
  if (parsed.positional.size() != 1)
    throw Error(ErrorKind::Usage, "compile: expected exactly one program FILE");
  const std::string& file = parsed.positional.front();
  const auto start = std::chrono::steady_clock::now();
  std::string engine_name = parsed.vars["engine"].as<std::string>();
  const Engine* engine = find_engine(engine_name);
  if (!engine)
    throw Error(ErrorKind::Usage,
                "unknown engine `" + engine_name + "`; available: " + engine_names());
  CompileOptions compile_options;
  if (parsed.vars.count("arch")) {
    compile_options.target = parsed.vars["arch"].as<std::string>();
    if (engine->target_help().empty()) {
      std::string with;
      for (const Engine* e : all_engines())
        if (!e->target_help().empty()) with += (with.empty() ? "" : ", ") + e->name();
      throw Error(ErrorKind::Usage,
                  with.empty()
                      ? "compile: --arch: no engine of this build compiles for a device"
                      : "compile: --arch needs the " + with + " engine (--engine " + with + ")");
    }
  }
  std::string why;
  if (compile_options.target.empty() && !engine->available(why))
    throw Error(
        ErrorKind::Input,
        "engine `" + engine_name + "` is not available: " + why +
            (engine->target_help().empty() ? "" : " (compile for " + engine->target_help() + ")"));
  // The engine's set-up overlaps with parsing and fusing.
  std::jthread preparing = engine->prepare();

  Views views = Views::from(parsed.vars);
  PhaseTimes times{engine_name, {}};
  Program program = Views::load_timed(file, times);
  std::optional<KernelGraph> graph = views.fuse(program, times);
  compile_options.fusion = views.fusion;
  compile_options.math = views.math;
  auto exe = times.time("compile", [&] { return engine->compile(program, compile_options); });
  const CompileReport& report = exe->compile_report();
  if (!graph) graph = build_kernel_graph(program, FusionOptions{views.fusion});
  std::string target = engine_name;
  if (!compile_options.target.empty()) target += " " + compile_options.target;
  std::map<int, KernelTiming> kernels = Views::compile_details(report, times);
  // The jit's optimised compiles (docs/jit.md "Tiers"): what the disk cache stores.
  times.time("optimised tier", [&] { exe->settle(); });
  times.wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  views.finish(file, graph, {times}, kernels);

  std::map<int, const Kernel*> by_id;
  for (const Kernel* k : compute_kernels(*graph))
    by_id[k->id] = k;
  std::cout << target << (views.fusion ? ", fused: " : ", unfused: ") << report.kernels.size()
            << " compiled kernel" << (report.kernels.size() == 1 ? "" : "s") << ", compile "
            << ms(times.ms_of("compile")) << "\n";
  for (const KernelCompileInfo& k : report.kernels) {
    auto it = by_id.find(k.kernel);
    std::cout << "  kernel " << k.kernel;
    if (it != by_id.end()) std::cout << " (" << kernel_kind_name(*it->second) << ")";
    std::cout << ": " << ms(k.compile_ms) << ", " << k.cache << "\n";
  }
  for (const auto& [name, count] : report.counts)
    std::cout << name << ": " << count << "\n";
  return 0;
}

} // namespace strata::tool
