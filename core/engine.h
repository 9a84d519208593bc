// The engine interface: compile a checked program once, run it many times.
//
// Every way of executing Strata (the reference interpreter, tbb, jit, cuda)
// is an Engine. `compile` is the expensive step (Accelerate's run1): its
// result is an Executable that runs on many inputs without compiling again.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "core/array.h"
#include "core/ir.h"
#include "core/npy_rows.h"
#include "core/reduction_order.h"

namespace strata {

// How an engine may compute the library functions `exp log sin cos tan pow`
// (`--math`, docs/language.md "Pinned semantics"). Exact, the default: as
// the interpreter does, by the C library's scalar functions, so every result
// is bitwise the interpreter's. Fast: each such function's result may be up to
// kFastMathUlps ULP from the interpreter's (a vector math library); the
// executable then says so (Executable::math_ulps) and the oracle compares
// under bounds. Engines without a faster library compute them exactly.
enum class MathMode { Exact, Fast };
constexpr int kFastMathUlps = 4;
// The mode's name ("exact", "fast": --math, case.json, Python's math=), and
// the mode of a name (nullopt for any other text).
const char* math_mode_name(MathMode m);
std::optional<MathMode> parse_math_mode(std::string_view name);

struct CompileOptions {
  bool fusion = true;  // engines without a fusion pass ignore it
  bool checked = true; // bounds and division checks (the interpreter always checks)
  MathMode math = MathMode::Exact;
  // The association order fold, fold1 and the scans must run in
  // (core/reduction_order.h). Engines run the blocked order; tests and the
  // fuzzer also ask for small orders (ReductionOrder::small()) so that random
  // programs of a few elements exercise the chunk and lane trees. The
  // interpreter engine always runs the canonical order.
  ReductionOrder order = ReductionOrder::blocked();
  // A device to compile for instead of this machine's (cuda: "sm_80"), to
  // fill the kernel cache where there is none (`strata compile --arch`): the
  // executable reports its compile and refuses to run. Empty: this machine.
  // Only an engine whose Engine::target_help() is not empty accepts one; the
  // others throw Error(ErrorKind::Usage) (require_no_target below).
  std::string target = "";
};

// What compiling cost, for --dump-phases and --report: engine-internal phases
// (codegen, compile, ...) and, per kernel of the kernel graph, its compile time
// and where its code came from. Engines without compiled kernels leave it empty.
struct KernelCompileInfo {
  int kernel = 0;            // the kernel's id in the kernel graph
  double compile_ms = 0;     // codegen + compile + load
  std::string cache = "n/a"; // "hit (memory)", "hit (disk)", "miss: <why>", "n/a"
};
struct CompileReport {
  std::vector<std::pair<std::string, double>> phases; // name, milliseconds, in order
  std::vector<KernelCompileInfo> kernels;
  // Engine-specific counts a compile reports (cuda: "nvrtc compiles", 0 when
  // the image came from a cache), printed by `strata compile` as `name: N`.
  std::vector<std::pair<std::string, uint64_t>> counts;
};

// What one rank of a distributed engine exchanged for one compute kernel in
// a run (docs/mpi.md): how it ran the kernel ("rows", "whole", "fold of
// partials", "rows with halos", then " after gathering A B" for the arrays
// it gathered first) and the bytes it sent to and received from other ranks.
struct KernelExchange {
  std::string plan;
  uint64_t sent = 0, received = 0;
};

class Executable {
public:
  virtual ~Executable() = default;
  // Inputs in parameter order; results flattened in order (see interpret()).
  virtual std::vector<Array> run(const std::vector<Array>& inputs) = 0;
  // The association order of the reductions it runs (core/reduction_order.h),
  // CompileOptions::order for the engines: the oracle replays it and compares
  // every element bitwise.
  virtual ReductionOrder reduction_order() const { return ReductionOrder::canonical(); }
  // How far its transcendental functions (exp log sin ...) may be from
  // correctly rounded, in ulps, where they are not the interpreter's C
  // library calls (a vector math library); 0: bitwise the interpreter's.
  // Then the oracle cannot replay them, and compares under sound bounds
  // carried through every later operation (interpreter/bounds.h).
  virtual int math_ulps() const { return 0; }
  // Waits until the code it runs is final: an engine that runs a quick
  // compile first (the jit's tiers, docs/jit.md "Tiers") has loaded its
  // optimised code, so that runs timed afterwards time that code. True when
  // it ran other code before (runs before and after may have run different
  // code, so a check runs and compares both); false for the others.
  virtual bool settle() { return false; }
  virtual const CompileReport& compile_report() const {
    static const CompileReport none;
    return none;
  }
  // Each compute kernel's wall time in milliseconds in the last run that
  // finished, by kernel id (summed over an awhile's iterations); empty for
  // engines that do not run kernels one by one (the interpreter).
  virtual std::map<int, double> kernel_run_ms() const { return {}; }
  // KernelExchange by kernel id in the last run that finished, summed over
  // the ranks this process runs (one under mpirun, P for `mpi:P`) and over
  // an awhile's iterations, the plan rank 0's; empty for the engines of one
  // machine.
  virtual std::map<int, KernelExchange> kernel_exchange() const { return {}; }
  // `run` on inputs in `.npy` files, opened for reading by rows: the results
  // are returned, or, where `outputs` is not empty (one path per result),
  // written to those files instead (and none returned). For an engine whose
  // processes each hold some rows of the large arrays
  // (Engine::reads_files_by_rows: the mpi engine reads and writes only the
  // rows each rank holds; docs/mpi.md). The default reads every input
  // whole, runs, and writes each result whole (rank 0 of a launch alone,
  // core/launch.h: the other ranks computed the same).
  virtual std::vector<Array> run_files(const std::vector<NpyRowsReader>& inputs,
                                       const std::vector<std::string>& outputs);
};

class Engine {
public:
  virtual ~Engine() = default;
  virtual std::string name() const = 0;
  // Whether the engine can run on this machine; if not, `why` says so ("no CUDA device").
  virtual bool available(std::string& why) const = 0;
  // `program` must be type-checked and outlive the executable.
  virtual std::unique_ptr<Executable> compile(const Program& program,
                                              const CompileOptions& options) const = 0;
  // What CompileOptions::target names for this engine, as a hint for users
  // ("a GPU architecture with --arch sm_XX"); empty: it compiles for this
  // machine only.
  virtual std::string target_help() const { return ""; }
  // Whether its executables' run_files reads and writes by rows, so that a
  // tool should give it files rather than arrays read whole.
  virtual bool reads_files_by_rows() const { return false; }
  // Starts the engine's one-time set-up of the process (the jit: its LLJIT
  // and first link, docs/jit.md "Disk hits: the warm-up") on a thread of its own, so that
  // it overlaps with the caller's parsing and reading; compile waits for it
  // and does it itself when no one prepared. The thread is joined when the
  // result is dropped (no thread when there is nothing to set up).
  virtual std::jthread prepare() const { return {}; }
};

// prepare() of each engine: the set-ups run at the same time, each joined
// when the result is dropped.
inline std::vector<std::jthread> prepare_engines(const std::vector<const Engine*>& engines) {
  std::vector<std::jthread> preparing;
  for (const Engine* e : engines)
    preparing.push_back(e->prepare());
  return preparing;
}

// For the engines that compile for this machine only: a CompileOptions::target
// is a usage error, never silently ignored.
void require_no_target(const CompileOptions& options, const std::string& engine);

} // namespace strata
