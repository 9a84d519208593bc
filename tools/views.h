// The fusion views of `strata run`, `check` and `compile`: --no-fusion,
// --dump-dot FILE.dot, --dump-phases and --report FILE.json (docs/fusion.md),
// and the compile options they share, --no-fusion and --math.
//
// A command adds the options, loads its program through load_timed (which
// times parse and check), builds the kernel graph when a view needs it
// (timed as "fuse"), times its engines' compile and run, and calls finish().
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/engine.h"
#include "core/ir.h"
#include "fusion/kernel_graph.h"
#include "fusion/report.h"
#include "tools/options.h"

namespace strata::tool {

struct Views {
  bool fusion = true;
  MathMode math = MathMode::Exact;
  bool dump_phases = false;
  std::string dump_dot, report; // empty: not asked for

  bool need_graph() const { return dump_phases || !dump_dot.empty() || !report.empty(); }
  CompileOptions compile_options() const {
    CompileOptions o;
    o.fusion = fusion;
    o.math = math;
    return o;
  }
  // Adds the five options; reads them back after parsing.
  static void add_options(po::options_description& options);
  static Views from(const po::variables_map& vars);

  // Reads, parses (timed "parse") and checks (timed "check") a program file.
  static Program load_timed(const std::filesystem::path& file, PhaseTimes& times);
  // Builds the kernel graph, timed "fuse", when a view needs it.
  std::optional<KernelGraph> fuse(const Program& program, PhaseTimes& times) const;
  // An engine's own compile phases (codegen, compile, cache, ...) appended to
  // `times` as "compile.<phase>", and its kernels' compile times and cache
  // outcomes for the report.
  static std::map<int, KernelTiming> compile_details(const CompileReport& report,
                                                     PhaseTimes& times);
  // Writes the dot file and the report, prints the phases on stderr.
  void finish(const std::string& file, const std::optional<KernelGraph>& graph,
              const std::vector<PhaseTimes>& engines,
              const std::map<int, KernelTiming>& kernels = {}) const;
};

} // namespace strata::tool
