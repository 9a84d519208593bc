#include "oracle/campaign.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>

#include "core/ir_walk.h"
#include "core/printer.h"
#include "oracle/bundle.h"
#include "oracle/differential.h"
#include "oracle/generator_rc.h"

namespace strata {
namespace fs = std::filesystem;

std::vector<CompileOptions> default_variants() {
  CompileOptions fused, unfused, small;
  unfused.fusion = false;
  small.order = ReductionOrder::small();
  return {fused, unfused, small};
}

std::string variant_name(const CompileOptions& options) {
  std::string name = options.fusion ? "fused" : "unfused";
  if (options.order == ReductionOrder::small()) return name + ", order small";
  if (options.order != ReductionOrder::blocked()) return name + ", order " + options.order.spec();
  return name;
}

std::string disagreement_class(const std::string& d) {
  if (d.find("the generator made") != std::string::npos) return "generator";
  if (d.find("threw (not a strata::Error)") != std::string::npos) return "exception";
  if (d.find("is not deterministic") != std::string::npos) return "nondeterminism";
  size_t expected = d.find("expected error"), found = d.find("found error");
  if (expected != std::string::npos && found != std::string::npos) return "error vs error";
  if (expected != std::string::npos || found != std::string::npos) return "error vs results";
  return "values";
}

namespace {

using Clock = std::chrono::steady_clock;

// Set by SIGINT while a campaign runs (async-signal-safe: a lock-free atomic).
std::atomic<bool> interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_sigint(int) {
  interrupted.store(true);
}

// Installs on_sigint for the lifetime of a campaign, restoring what was there.
class SigintGuard {
public:
  SigintGuard() {
    interrupted.store(false);
    struct sigaction sa {};
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_);
  }
  ~SigintGuard() { sigaction(SIGINT, &old_, nullptr); }
  SigintGuard(const SigintGuard&) = delete;
  SigintGuard& operator=(const SigintGuard&) = delete;

private:
  struct sigaction old_ {};
};

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// The first disagreement of `engine` with the oracle on the case, in the
// given variants; a generator or engine exception counts as one.
std::optional<std::pair<CompileOptions, std::string>>
check_case(const GeneratedCase& c, const Engine& engine,
           const std::vector<CompileOptions>& variants, ElementCounts* counts) {
  Program p;
  try {
    p = c.checked();
  } catch (const std::exception& e) {
    return std::pair{variants.at(0),
                     std::string("the generator made an invalid program: ") + e.what()};
  }
  for (const CompileOptions& options : variants) {
    try {
      DiffReport r = differential_check(p, c.inputs, engine, options);
      if (!r.agree) return std::pair{options, r.disagreement};
      if (counts) *counts += r.counts;
    } catch (const std::exception& e) {
      return std::pair{options, engine.name() + " threw (not a strata::Error): " + e.what()};
    }
  }
  return std::nullopt;
}

int count_nodes(Program& p) {
  int n = 0;
  walk_nodes(
      *p.body, [&](Exp&) { ++n; }, [&](Acc&) { ++n; });
  return n;
}

std::string dir_name(const std::string& engine) {
  std::string s = engine;
  for (char& ch : s)
    if (ch == ':' || ch == '/') ch = '-';
  return s;
}

class Progress {
public:
  Progress(const CampaignOptions& o) : o_(o), tty_(isatty(STDERR_FILENO)) {}
  void update(const CampaignResult& r, bool force = false) {
    if (!o_.progress) return;
    double now = seconds_since(start_);
    double every = o_.progress_interval > 0 ? o_.progress_interval : tty_ ? 0.25 : 5.0;
    if (!force && now - last_ < every) return;
    last_ = now;
    std::ostringstream s;
    s.precision(1);
    s << std::fixed << "fuzz " << o_.engine->name() << ": " << r.programs << " programs, "
      << (now > 0 ? double(r.programs) / now : 0.0) << "/s, " << r.failures.size()
      << " failure(s), " << now << " s";
    if (tty_)
      std::cerr << "\r" << s.str() << "\033[K" << std::flush;
    else
      std::cerr << s.str() << "\n";
  }
  void finish(const CampaignResult& r) {
    update(r, true);
    if (o_.progress && tty_) std::cerr << "\n";
  }

private:
  const CampaignOptions& o_;
  bool tty_;
  Clock::time_point start_ = Clock::now();
  double last_ = -1e9;
};

} // namespace

CampaignResult run_campaign(const CampaignOptions& o) {
  CampaignResult result;
  SigintGuard sigint;
  Progress progress(o);
  rc::Random random(o.seed);
  auto start = Clock::now();
  const rc::Gen<GeneratedCase> gen = gen_case();
  uint64_t decisions = 0;
  auto decide = [&](bool mine, long program) {
    uint64_t where = (++decisions * 1000003 + uint64_t(program)) * 1000003 + result.failures.size();
    return o.agree ? o.agree(mine, where) : mine;
  };
  for (long i = 0; o.count == 0 || i < o.count; ++i) {
    int stop = decide(o.time_limit > 0 && seconds_since(start) >= o.time_limit, i) ? 1
               : decide(interrupted.load(), i)                                     ? 2
                                                                                   : 0;
    if (stop == 2) result.interrupted = true;
    if (stop) break;
    int size = int(i % 101); // RapidCheck's sizes, small programs first
    rc::Shrinkable<GeneratedCase> shrinkable = gen(random.split(), size);
    auto failure = check_case(shrinkable.value(), *o.engine, o.variants, &result.counts);
    ++result.programs;
    if (failure) {
      Counterexample cx;
      cx.program = i;
      cx.seconds = seconds_since(start);
      cx.options = failure->first;
      cx.disagreement = failure->second;
      // Shrink: take the first smaller case that still fails in the same variant.
      std::vector<CompileOptions> mode{cx.options};
      auto shrink_start = Clock::now();
      auto shrink_over = [&] {
        return decide(seconds_since(shrink_start) >= o.shrink_limit || interrupted.load(), -1 - i);
      };
      for (bool progressed = true; progressed && !shrink_over();) {
        progressed = false;
        auto shrinks = shrinkable.shrinks();
        while (auto next = shrinks.next()) {
          if (shrink_over()) break;
          if (auto f = check_case(next->value(), *o.engine, mode, nullptr)) {
            shrinkable = std::move(*next);
            cx.disagreement = f->second;
            progressed = true;
            break;
          }
        }
      }
      GeneratedCase c = shrinkable.value();
      Bundle b;
      try {
        Program p = c.checked();
        b.program_text = print_program(p);
        cx.nodes = count_nodes(p);
      } catch (const std::exception&) {
        b.program_text = c.text; // the generator's own failure: keep its text
      }
      for (char ch : b.program_text)
        cx.lines += ch == '\n';
      b.input_names = c.params;
      b.inputs = c.inputs;
      b.engine = o.engine->name();
      b.fusion = cx.options.fusion;
      b.order = cx.options.order;
      b.math = cx.options.math;
      b.seed = "strata fuzz --seed " + std::to_string(o.seed) + ", program " + std::to_string(i);
      b.size = c.size;
      b.disagreement = cx.disagreement;
      cx.bundle = o.out / (dir_name(o.engine->name()) + (cx.options.fusion ? "" : "-unfused") +
                           (cx.options.order == ReductionOrder::blocked() ? "" : "-order") + "-" +
                           std::to_string(i));
      if (o.write_bundles) write_bundle(cx.bundle, b);
      result.failures.push_back(cx);
      progress.update(result, true);
      if (o.stop_at_first) break;
    }
    progress.update(result);
  }
  result.seconds = seconds_since(start);
  progress.finish(result);
  return result;
}

} // namespace strata
