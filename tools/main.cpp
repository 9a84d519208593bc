// `strata`: run, check and format Strata programs.
#include <cstdio>
#include <cstring>
#include <iostream>

#include "core/environment.h"
#include "core/error.h"
#include "core/launch.h"
#include "core/version.h"
#include "oracle/registry.h"
#include "tools/commands.h"
#include "tools/program_files.h"

namespace {

void print_usage(std::ostream& out) {
  out << "usage: strata COMMAND [ARGS]\n"
         "\n"
         "commands:\n"
         "  run FILE [name=in.npy ...] [-o out.npy] [--engine NAME]   run a program, print or save "
         "results\n"
         "  compile FILE [--engine NAME] [--arch sm_XX]               compile only (fills the "
         "kernel cache),\n"
         "                                                            list kernels' compile "
         "times\n"
         "  check FILE|DIR ... [name=in.npy ...] [--engine NAME]      run on every engine, compare "
         "with the\n"
         "                                                            interpreter and with "
         "expected outputs\n"
         "  fmt FILE [-i]                                             print the program in "
         "canonical form\n"
         "  dot FILE [--no-fusion] [-o out.dot]                       the kernel graph as "
         "Graphviz\n"
         "  explain FILE [name=in.npy ...] --at I,J [--json]          why one result element "
         "has its value\n"
         "  fuzz [--engine NAME] [--count N] [--seed S] [--out DIR]   random programs against the "
         "oracle;\n"
         "       [--no-fusion] [--time-limit S] [--faults]           --faults: the seeded-fault "
         "catch campaign\n"
         "  test FILE [--input SPEC ...] [--engine NAME] [--seed S]   the program on generated "
         "inputs against\n"
         "                                                            the oracle; shrinks and "
         "saves failures\n"
         "  bench FILE [name=in.npy ...] [--input SPEC] [--json F]     time every engine fused and "
         "unfused\n"
         "       [--plot F.svg] [--threads N] [--min-time S]          against the interpreter\n"
         "  cache stats|clear [--dir DIR]                             the jit/cuda kernel cache on "
         "disk\n"
         "\n"
         "run, check and compile also take --no-fusion, --dump-dot FILE.dot, --dump-phases and "
         "--report "
         "FILE.json.\n"
         "`strata COMMAND --help` describes a command. Exit codes: 0 success, 1 program or input "
         "error,\n"
         "2 usage error.\n";
  out << "\nengines: ";
  for (const strata::Engine* e : strata::all_engines()) {
    std::string why;
    out << (e == strata::all_engines().front() ? "" : ", ") << e->name();
    if (!e->available(why)) out << " (not here: " << why << ")";
  }
  out << "\n\nenvironment (docs/environment.md):\n";
  for (const strata::EnvironmentVariable& v : strata::environment_variables()) {
    std::string lhs = std::string("  ") + v.name + "=" + v.value;
    out << lhs << std::string(lhs.size() < 44 ? 44 - lhs.size() : 1, ' ') << v.meaning << "\n";
  }
}

} // namespace

int main(int argc, char** argv) {
  using namespace strata;
  if (argc < 2) {
    print_usage(std::cerr);
    return 2;
  }
  std::string command = argv[1];
  tool::Args args(argv + 2, argv + argc);
  // Under mpirun every rank runs the command (the ranks of `--engine mpi`);
  // rank 0 alone prints results and writes files. Errors, which the ranks
  // agree on, still reach standard error from every rank.
  if (launch_from_environment().rank != 0) {
    if (!std::freopen("/dev/null", "w", stdout)) return 1;
    tool::set_secondary_rank();
  }
  try {
    if (command == "--help" || command == "-h" || command == "help") {
      print_usage(std::cout);
      return 0;
    }
    if (command == "--version") {
      std::cout << "strata " << strata::version() << "\n";
      return 0;
    }
    // A malformed setting is a usage error naming it, whichever command
    // would have read it (docs/environment.md).
    check_environment();
    if (command == "run") return tool::run_command(args);
    if (command == "check") return tool::check_command(args);
    if (command == "compile") return tool::compile_command(args);
    if (command == "fmt") return tool::fmt_command(args);
    if (command == "dot") return tool::dot_command(args);
    if (command == "explain") return tool::explain_command(args);
    if (command == "fuzz") return tool::fuzz_command(args);
    if (command == "test") return tool::test_command(args);
    if (command == "bench") return tool::bench_command(args);
#if STRATA_HAVE_CACHE
    if (command == "cache") return tool::cache_command(args);
#endif
    std::cerr << "strata: error: unknown command `" << command << "`\n";
    print_usage(std::cerr);
    return 2;
  } catch (const Error& e) {
    std::cerr << (e.loc().known() ? "" : "strata: ") << e.what() << "\n";
    return e.kind() == ErrorKind::Usage ? 2 : 1;
  } catch (const std::exception& e) {
    std::cerr << "strata: internal error: " << e.what() << "\n";
    return 1;
  }
}
