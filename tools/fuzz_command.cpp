// strata fuzz [--engine NAME [--ranks P]] [--count N] [--seed S] [--out DIR] [--no-fusion]
//             [--time-limit S] [--faults [--min-catch-rate R]]
//
// A campaign of random programs checked against the oracle (tools/
// oracle/campaign.h), each disagreement shrunk and saved as a bundle that
// `strata check DIR` replays. `--engine faulty` (or --faults) runs the catch
// campaign instead: every seeded fault of the test-only faulty engine
// (oracle/faults/) is fuzzed until caught or its time limit, and a table says
// which were caught, after how many programs and seconds, and how small the
// shrunk program is. `--engine mpi` starts P processes under mpirun that run
// the campaign in step, as the ranks of one mpi engine.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include "core/error.h"
#include "core/launch.h"
#include "oracle/campaign.h"
#include "oracle/faults/faulty_engine.h"
#include "tools/commands.h"
#include "tools/engine_choice.h"
#include "tools/options.h"
#include "tools/program_files.h"
#if STRATA_TOOL_HAVE_MPI
#include "mpi/engine.h"
#include <unistd.h>
#endif

namespace strata::tool {
namespace fs = std::filesystem;
namespace {

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

int fault_campaign(CampaignOptions base, double per_fault, double min_rate) {
  const auto engines = faults::all_faulty_engines();
  std::cout << "catch campaign: " << engines.size() << " seeded faults, seed " << base.seed
            << ", at most " << fixed(per_fault, 0) << " s"
            << (base.count ? " or " + std::to_string(base.count) + " programs" : "")
            << " per fault; bundles under " << base.out.string() << "\n\n";
  std::cout << std::left << std::setw(30) << "fault" << std::setw(8) << "caught" << std::right
            << std::setw(10) << "programs" << std::setw(10) << "seconds" << std::setw(14)
            << "shrunk nodes" << std::setw(8) << "lines"
            << "\n";
  int caught = 0;
  for (const Engine* e : engines) {
    CampaignOptions o = base;
    o.engine = e;
    o.time_limit = per_fault;
    o.stop_at_first = true;
    o.progress = false;
    CampaignResult r = run_campaign(o);
    std::string name = e->name().substr(std::string(faults::kFaultyPrefix).size());
    std::cout << std::left << std::setw(30) << name;
    if (r.failures.empty()) {
      std::cout << std::setw(8) << "no" << std::right << std::setw(10) << r.programs
                << std::setw(10) << fixed(r.seconds, 2) << std::setw(14) << "-" << std::setw(8)
                << "-"
                << "\n";
    } else {
      const Counterexample& cx = r.failures[0];
      ++caught;
      std::cout << std::setw(8) << "yes" << std::right << std::setw(10) << cx.program + 1
                << std::setw(10) << fixed(cx.seconds, 2) << std::setw(14) << cx.nodes
                << std::setw(8) << cx.lines << "\n";
    }
    std::cout << std::flush;
  }
  double rate = engines.empty() ? 0 : double(caught) / double(engines.size());
  std::cout << "\ncaught " << caught << " of " << engines.size() << " faults: catch rate "
            << fixed(100 * rate, 1) << "% (required " << fixed(100 * min_rate, 1) << "%)\n";
  return rate >= min_rate ? 0 : 1;
}

#if STRATA_TOOL_HAVE_MPI
#ifndef STRATA_MPIEXEC
#define STRATA_MPIEXEC "mpirun"
#endif
// `strata fuzz --engine mpi` outside a launcher: this command again, as
// `ranks` processes under mpirun (Open MPI's options), every array in
// blocks unless STRATA_MPI_MIN_BLOCK_BYTES says otherwise. Returns only on
// failure.
[[noreturn]] void relaunch_under_mpirun(int ranks, const Args& args) {
  setenv("STRATA_MPI_MIN_BLOCK_BYTES", "0", 0);
  std::vector<std::string> argv = {STRATA_MPIEXEC, "--oversubscribe"};
  if (::geteuid() == 0) argv.push_back("--allow-run-as-root");
  argv.insert(argv.end(), {"-x", "STRATA_MPI_MIN_BLOCK_BYTES", "-np", std::to_string(ranks),
                           fs::read_symlink("/proc/self/exe").string(), "fuzz"});
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> c;
  for (std::string& a : argv)
    c.push_back(a.data());
  c.push_back(nullptr);
  std::cout << std::flush;
  ::execvp(c[0], c.data());
  throw Error(ErrorKind::Input, std::string("fuzz: cannot start ") + STRATA_MPIEXEC + " for " +
                                    std::to_string(ranks) + " ranks: " + std::strerror(errno));
}
#endif

} // namespace

int fuzz_command(const Args& args) {
  po::options_description options(
      "usage: strata fuzz [options]\n\n"
      "Checks random well-typed programs against the oracle (the interpreter) on\n"
      "an engine, fused and unfused; shrinks every disagreement and saves it as a\n"
      "counterexample bundle that `strata check DIR` replays. Exit 1 on any\n"
      "disagreement. With --faults (or --engine faulty), runs the catch campaign\n"
      "over the seeded faults of the test-only faulty engine instead, and exits 1\n"
      "when fewer than --min-catch-rate of them are caught.\n\n"
      "options");
  options.add_options()("engine,e", po::value<std::string>(),
                        "the engine to fuzz (default: every available engine but interp; "
                        "`faulty` for the catch campaign, `faulty:FAULT` for one fault)")(
      "count,n", po::value<long>(), "programs to check (default 1000; 0 = no limit)")(
      "seed,s", po::value<uint64_t>()->default_value(1), "random seed")(
      "out,o", po::value<std::string>(),
      "where counterexample bundles go (default ./strata-fuzz-SEED)")("no-fusion",
                                                                      "check unfused runs only")(
      "time-limit,t", po::value<double>(),
      "stop after this many seconds (the catch campaign: per fault, default 60)")(
      "shrink-limit", po::value<double>()->default_value(30),
      "seconds spent shrinking one counterexample")("faults", "run the catch campaign")(
      "progress-interval", po::value<double>(),
      "seconds between progress lines (default 0.25 on a terminal, 5 otherwise)")(
      "ranks", po::value<int>(),
      "with --engine mpi: the processes mpirun starts (default 3); each runs every "
      "program, as ranks of one engine")(
      "min-catch-rate", po::value<double>()->default_value(0.95),
      "the catch campaign fails below this fraction of faults caught")("quiet,q",
                                                                       "no progress line");
  add_math_option(options);
  ParsedArgs parsed = parse_args(args, options);
  if (parsed.help) {
    std::cout << options << "\n";
    return 0;
  }
  if (!parsed.positional.empty())
    throw Error(ErrorKind::Usage, "fuzz: unexpected argument `" + parsed.positional[0] + "`");
  auto& vars = parsed.vars;
  CampaignOptions o;
  o.seed = vars["seed"].as<uint64_t>();
  o.out = vars.count("out") ? fs::path(vars["out"].as<std::string>())
                            : fs::path("strata-fuzz-" + std::to_string(o.seed));
  if (vars.count("no-fusion")) {
    CompileOptions unfused, unfused_small;
    unfused.fusion = unfused_small.fusion = false;
    unfused_small.order = ReductionOrder::small();
    o.variants = {unfused, unfused_small};
  }
  for (CompileOptions& v : o.variants)
    v.math = math_option(vars);
  o.shrink_limit = vars["shrink-limit"].as<double>();
  o.progress = !vars.count("quiet");
  if (vars.count("progress-interval")) {
    o.progress_interval = vars["progress-interval"].as<double>();
    if (!(o.progress_interval > 0))
      throw Error(ErrorKind::Usage, "fuzz: --progress-interval must be > 0");
  }
  if (vars.count("count")) {
    o.count = vars["count"].as<long>();
    if (o.count < 0) throw Error(ErrorKind::Usage, "fuzz: --count must be >= 0");
  }
  double time_limit = vars.count("time-limit") ? vars["time-limit"].as<double>() : 0;
  if (time_limit < 0) throw Error(ErrorKind::Usage, "fuzz: --time-limit must be >= 0");
  std::string engine = vars.count("engine") ? vars["engine"].as<std::string>() : "";

  if (vars.count("faults") || engine == "faulty") {
    if (!vars.count("count")) o.count = 0;
    return fault_campaign(o, vars.count("time-limit") ? time_limit : 60,
                          vars["min-catch-rate"].as<double>());
  }

  if (vars.count("ranks") && engine != "mpi")
    throw Error(ErrorKind::Usage, "fuzz: --ranks is for --engine mpi");
  std::string on_ranks; // "on P ranks" when the processes of a launch run it together
  if (engine == "mpi") {
#if STRATA_TOOL_HAVE_MPI
    Launch launch = launch_from_environment();
    int ranks = vars.count("ranks") ? vars["ranks"].as<int>() : 3;
    if (ranks < 1 || ranks > 64) throw Error(ErrorKind::Usage, "fuzz: --ranks must be 1 to 64");
    if (!launch.launched && ranks > 1) relaunch_under_mpirun(ranks, args);
    // Under mpirun: every rank runs the campaign in step; rank 0 reports
    // and writes the counterexamples.
    o.agree = agree_with_rank0;
    o.progress = o.progress && !secondary_rank();
    o.write_bundles = !secondary_rank();
    if (launch.launched) on_ranks = " on " + std::to_string(launch.size) + " ranks";
#endif
  }
  std::vector<const Engine*> engines = engines_to_check(
      engine.empty() ? std::vector<std::string>{} : std::vector<std::string>{engine}, std::cout);
  std::vector<std::jthread> preparing = prepare_engines(engines); // overlaps the first programs
  o.time_limit = time_limit;
  size_t failures = 0;
  for (const Engine* e : engines) {
    o.engine = e;
    CampaignResult r = run_campaign(o);
    failures += r.failures.size();
    std::cout << e->name() << on_ranks << ": " << r.programs << " programs in "
              << fixed(r.seconds, 1) << " s ("
              << fixed(r.seconds > 0 ? double(r.programs) / r.seconds : 0, 1) << " programs/s), "
              << r.failures.size() << " disagreement(s)\n";
    // How the output elements of the agreeing checks were compared (issue 16):
    // every one bitwise against the oracle replaying the engine's order.
    std::cout << "  compared: " << r.counts.str() << "\n";
    std::map<std::string, int> classes;
    for (const Counterexample& cx : r.failures)
      ++classes[disagreement_class(cx.disagreement)];
    for (const auto& [name, n] : classes)
      std::cout << "  disagreements (" << name << "): " << n << "\n";
    for (const Counterexample& cx : r.failures)
      std::cout << "  program " << cx.program << " (" << variant_name(cx.options)
                << "): " << cx.disagreement << "\n    shrunk to " << cx.nodes
                << " nodes; replay: " << (o.agree ? "mpirun -np P " : "") << "strata check "
                << cx.bundle.string() << "\n";
    if (r.interrupted) {
      std::cout << "interrupted: the figures above are the campaign so far\n";
      return 130;
    }
  }
  return failures == 0 ? 0 : 1;
}

} // namespace strata::tool
