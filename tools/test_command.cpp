// strata test FILE [--input SPEC ...] [--engine NAME ...] [--count N] [--seed S]
//                  [--time-limit S] [--shrink-limit S] [--out DIR] [--no-fusion] [-q]
//
// Property-tests the user's own program: inputs drawn from specs
// (oracle/input_spec.h: `xs: f32[n] in [-1, 1]`, `n: 1000..100000`, given
// with --input or as `;; input` lines opening the program), each trial
// checked against the oracle on every engine in each compile variant (the
// differential check: bitwise, or inside the bounds of the order the engine
// declares). A disagreement is shrunk (sizes first, then element values) and
// written as a bundle that `strata check DIR` replays.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <sstream>
#include <unistd.h>

#include "core/array_format.h"
#include "core/check.h"
#include "core/parser.h"
#include "oracle/bundle.h"
#include "oracle/campaign.h"
#include "oracle/input_spec.h"
#include "tools/commands.h"
#include "tools/engine_choice.h"
#include "tools/options.h"
#include "tools/program_files.h"

namespace strata::tool {
namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

struct Case {
  Sizes sizes;
  std::vector<Array> inputs;
};

// The disagreement of `engine` with the oracle on the case in `options`, or "".
std::string disagreement(const Program& p, const Case& c, const Engine& engine,
                         const CompileOptions& options, ElementCounts* counts) {
  try {
    DiffReport r = differential_check(p, c.inputs, engine, options);
    if (r.agree && counts) *counts += r.counts;
    return r.agree ? "" : r.disagreement;
  } catch (const std::exception& e) {
    return engine.name() + " threw (not a strata::Error): " + e.what();
  }
}

// Shrinks a failing case: each size variable as small as it still fails
// (arrays cut to their leading box, so the values that failed stay), then
// each element replaced by the simplest value of its range that still fails.
// Sizes may go below the declared ones: the oracle gives every input a
// meaning, so a disagreement on any input is an engine's bug, and the
// smallest one is the easiest to read.
class Shrinker {
public:
  Shrinker(const Program& p, const InputSpecs& specs, const Engine& e, const CompileOptions& o,
           double limit)
      : p_(p), specs_(specs), engine_(e), options_(o), limit_(limit) {}

  Case shrink(Case c, std::string& why) {
    for (bool progress = true; progress && !out_of_time();) {
      progress = false;
      for (const SizeSpec& s : specs_.sizes)
        for (int64_t delta = c.sizes[s.name]; delta > 0 && !out_of_time(); delta /= 2) {
          Case smaller = resized(c, s.name, c.sizes[s.name] - delta);
          if (fails(smaller, why)) {
            c = std::move(smaller);
            progress = true;
            break;
          }
        }
    }
    for (size_t k = 0; k < c.inputs.size(); ++k)
      for (int64_t i = 0; i < c.inputs[k].size() && !out_of_time(); ++i)
        for (const Scalar& v : simple_values(specs_.arrays[k])) {
          if (c.inputs[k].read(0, i).identical(v)) break; // already the simplest so far
          Case simpler = c;
          simpler.inputs[k] = Array::allocate(c.inputs[k].elem_type(), c.inputs[k].shape(), false);
          for (int64_t j = 0; j < c.inputs[k].size(); ++j)
            simpler.inputs[k].write(0, j, j == i ? v : c.inputs[k].read(0, j));
          if (fails(simpler, why)) {
            c = std::move(simpler);
            break;
          }
        }
    return c;
  }

private:
  bool out_of_time() const { return seconds_since(start_) >= limit_; }
  bool fails(const Case& c, std::string& why) const {
    std::string d = disagreement(p_, c, engine_, options_, nullptr);
    if (!d.empty()) why = d;
    return !d.empty();
  }
  Case resized(const Case& c, const std::string& name, int64_t n) const {
    Case out{c.sizes, {}};
    out.sizes[name] = n;
    for (size_t k = 0; k < c.inputs.size(); ++k)
      out.inputs.push_back(truncate_to(c.inputs[k], spec_shape(specs_.arrays[k], out.sizes)));
    return out;
  }

  const Program& p_;
  const InputSpecs& specs_;
  const Engine& engine_;
  CompileOptions options_;
  double limit_;
  Clock::time_point start_ = Clock::now();
};

// " (below the declared n: 1000..100000)" when a shrunk size is.
std::string below_declared(const InputSpecs& specs, const Sizes& sizes) {
  std::string s;
  for (const SizeSpec& spec : specs.sizes)
    if (sizes.at(spec.name) < spec.lo)
      s += (s.empty() ? " (below the declared " : ", ") + spec.name + ": " +
           std::to_string(spec.lo) + ".." + std::to_string(spec.hi);
  return s.empty() ? s : s + ")";
}

std::string dir_name(const std::string& engine) {
  std::string s = engine;
  for (char& ch : s)
    if (ch == ':' || ch == '/') ch = '-';
  return s;
}

} // namespace

int test_command(const Args& args) {
  po::options_description options(
      "usage: strata test FILE [--input SPEC ...] [options]\n\n"
      "Checks the program on generated inputs against the oracle (the\n"
      "interpreter) on every available engine, fused and unfused. Each\n"
      "parameter needs a spec, given with --input or as a `;; input SPEC` line\n"
      "in the comments that open the program:\n"
      "  xs: f32[n] in [-1, 1]   n f32 values in [-1, 1] (ends may be -inf, inf)\n"
      "  m: f64[n, 3]            no range: every value, NaN and infinities too\n"
      "  k: i64 in [1, 10]       a rank-0 array\n"
      "  n: 1000..100000         a size variable (n: 7 for one size)\n"
      "Trial 0 takes every size at its smallest, trial 1 at its largest, later\n"
      "ones log-uniform; about one element in eight is an edge value of its\n"
      "range (0, -0, the ends, MIN/MAX, infinities, NaN). A disagreement is\n"
      "shrunk to the smallest sizes and simplest values that still fail and\n"
      "saved as a bundle that `strata check DIR` replays; exit 1.\n\n"
      "options");
  options.add_options()("input,i", po::value<std::vector<std::string>>(),
                        "an input spec (repeatable; replaces the program's own for that name)")(
      "engine,e", po::value<std::vector<std::string>>(),
      "test only these engines (repeatable; faulty:FAULT too)")(
      "count,n", po::value<long>()->default_value(100), "trials (0 = until --time-limit)")(
      "seed,s", po::value<uint64_t>()->default_value(1),
      "random seed")("time-limit,t", po::value<double>()->default_value(60),
                     "seconds for all engines together, shared among them (0 = no limit)")(
      "shrink-limit", po::value<double>()->default_value(30),
      "seconds spent shrinking one failing input")("out,o", po::value<std::string>(),
                                                   "where bundles go (default ./strata-test-SEED)")(
      "no-fusion", "check unfused runs only")("quiet,q", "no progress line");
  add_math_option(options);
  ParsedArgs parsed = parse_args(args, options);
  if (parsed.help) {
    std::cout << options << "\n";
    return 0;
  }
  auto& vars = parsed.vars;
  if (parsed.positional.size() != 1)
    throw Error(ErrorKind::Usage, "test: expected one program file, found " +
                                      std::to_string(parsed.positional.size()));
  fs::path file = parsed.positional[0];
  std::string text = read_program_text(file);
  Program program = parse_program(text, file.string());
  check_program(program);

  InputSpecs comments, given;
  parse_input_comments(text, file.string(), comments);
  if (vars.count("input"))
    for (const std::string& s : vars["input"].as<std::vector<std::string>>())
      parse_input_spec(s, "--input", given);
  InputSpecs specs = given;
  for (const SizeSpec& s : comments.sizes)
    if (std::ranges::none_of(given.sizes, [&](const SizeSpec& g) { return g.name == s.name; }))
      specs.sizes.push_back(s);
  for (const ArraySpec& a : comments.arrays)
    if (std::ranges::none_of(given.arrays, [&](const ArraySpec& g) { return g.name == a.name; }))
      specs.arrays.push_back(a);
  bind_input_specs(specs, program);

  std::vector<const Engine*> engines =
      engines_to_check(vars.count("engine") ? vars["engine"].as<std::vector<std::string>>()
                                            : std::vector<std::string>{},
                       std::cout);
  std::vector<std::jthread> preparing = prepare_engines(engines); // overlaps the oracle's run

  std::vector<CompileOptions> variants = default_variants();
  if (vars.count("no-fusion")) {
    CompileOptions unfused, unfused_small;
    unfused.fusion = unfused_small.fusion = false;
    unfused_small.order = ReductionOrder::small();
    variants = {unfused, unfused_small};
  }
  for (CompileOptions& o : variants)
    o.math = math_option(vars);
  uint64_t seed = vars["seed"].as<uint64_t>();
  long count = vars["count"].as<long>();
  if (count < 0) throw Error(ErrorKind::Usage, "test: --count must be >= 0");
  double time_limit = vars["time-limit"].as<double>();
  if (!(time_limit >= 0))
    throw Error(ErrorKind::Usage, "test: --time-limit must be a number of seconds >= 0");
  if (count == 0 && time_limit == 0)
    throw Error(ErrorKind::Usage, "test: --count 0 needs a --time-limit");
  if (program.params.empty()) count = 1; // nothing to draw: one trial says it all
  fs::path out = vars.count("out") ? fs::path(vars["out"].as<std::string>())
                                   : fs::path("strata-test-" + std::to_string(seed));
  bool progress = !vars.count("quiet"), tty = isatty(STDERR_FILENO);

  std::ostringstream limit;
  limit << time_limit;
  std::cout << "test " << file.string() << ": seed " << seed << ", "
            << (count ? std::to_string(count) + " trials" : "trials") << " per engine"
            << (time_limit > 0 ? " within " + limit.str() + " s in all (--time-limit)" : "")
            << "\n";
  for (const ArraySpec& a : specs.arrays)
    std::cout << "  " << a.origin << "\n";
  for (const SizeSpec& s : specs.sizes)
    std::cout << "  " << s.origin << "\n";

  int failures = 0;
  const auto began = Clock::now();
  for (size_t e = 0; e < engines.size(); ++e) {
    const Engine* engine = engines[e];
    auto start = Clock::now();
    // This engine's share of what is left of the budget: an engine that
    // finishes its trials early leaves its time to the next.
    double budget = time_limit > 0 ? std::max(0.0, time_limit - seconds_since(began)) /
                                         double(engines.size() - e)
                                   : 0;
    double last = -1e9;
    ElementCounts counts;
    long trial = 0, checks = 0;
    std::string failure;
    for (; (count == 0 || trial < count) &&
           (trial == 0 || budget <= 0 || seconds_since(start) < budget);
         ++trial) {
      Case c{draw_sizes(specs, seed, trial), {}};
      c.inputs = draw_inputs(specs, c.sizes, seed, trial);
      for (const CompileOptions& o : variants) {
        ++checks;
        std::string d = disagreement(program, c, *engine, o, &counts);
        if (d.empty()) continue;
        failure = d;
        Shrinker shrinker(program, specs, *engine, o, vars["shrink-limit"].as<double>());
        Case small = shrinker.shrink(c, d);
        Bundle b;
        b.program_text = text;
        for (const Param& p : program.params)
          b.input_names.push_back(p.name);
        b.inputs = small.inputs;
        b.engine = engine->name();
        b.fusion = o.fusion;
        b.order = o.order;
        b.math = o.math;
        b.seed = "strata test --seed " + std::to_string(seed) + ", trial " + std::to_string(trial);
        b.disagreement = d;
        fs::path dir = out / (dir_name(engine->name()) + (o.fusion ? "" : "-unfused") +
                              (o.order == ReductionOrder::blocked() ? "" : "-order") + "-trial" +
                              std::to_string(trial));
        write_bundle(dir, b);
        if (progress && tty) std::cerr << "\r\033[K";
        std::cout << engine->name() << ": trial " << trial << " (" << sizes_text(c.sizes) << ", "
                  << variant_name(o) << ") disagrees: " << failure << "\n  shrunk to "
                  << sizes_text(small.sizes) << below_declared(specs, small.sizes) << ": " << d
                  << "\n";
        for (size_t k = 0; k < small.inputs.size(); ++k)
          std::cout << "    " << specs.arrays[k].name << " = " << format_array(small.inputs[k], 64)
                    << "\n";
        std::cout << "  replay: strata check " << dir.string() << "\n";
        break;
      }
      if (!failure.empty()) break;
      if (progress && seconds_since(start) - last >= (tty ? 0.25 : 5.0)) {
        last = seconds_since(start);
        std::ostringstream s;
        s.precision(1);
        // The time left: the trials left at this engine's pace so far, or
        // what is left of its share of the budget, whichever ends first.
        double pace = last / double(trial + 1);
        double left = count > 0 ? pace * double(count - trial - 1) : budget - last;
        if (budget > 0) left = std::min(left, budget - last);
        s << std::fixed << "test " << engine->name() << " (" << e + 1 << "/" << engines.size()
          << "): trial " << trial + 1 << (count > 0 ? "/" + std::to_string(count) : "") << " ("
          << sizes_text(c.sizes) << "), " << checks << " checks, " << last << " s, about "
          << std::max(0.0, left) << " s left";
        std::cerr << (tty ? "\r" : "") << s.str() << (tty ? "\033[K" : "\n") << std::flush;
      }
    }
    if (progress && tty) std::cerr << "\r\033[K" << std::flush;
    if (!failure.empty()) {
      ++failures;
      continue;
    }
    std::ostringstream s;
    s.precision(1);
    s << std::fixed << engine->name() << ": " << trial << " trials, " << checks << " checks in "
      << seconds_since(start) << " s, 0 disagreements"
      << (count > 0 && trial < count ? " (the time limit ended it; --time-limit S for more)" : "")
      << "\n  compared: " << counts.str() << "\n";
    std::cout << s.str();
  }
  return failures == 0 ? 0 : 1;
}

} // namespace strata::tool
