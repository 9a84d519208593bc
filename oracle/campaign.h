// A fuzzing campaign of the differential harness, for `strata fuzz`: random
// programs from the RapidCheck generator (oracle/generator_rc.h), each checked
// against the oracle on one engine in each compile variant (fused and unfused
// in the blocked order, fused in the small order); a disagreement is
// shrunk with RapidCheck's own shrink tree (the tape of choices gets shorter
// and smaller, so the program does) and saved as a counterexample bundle.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/engine.h"
#include "oracle/differential.h"

namespace strata {

// Fused and unfused in the engines' blocked order, and fused in
// ReductionOrder::small(), whose chunks and lanes start at three elements so
// that generated rows of a few elements go through the whole declared tree.
std::vector<CompileOptions> default_variants();
// "fused", "unfused", "fused, order small".
std::string variant_name(const CompileOptions& options);

struct CampaignOptions {
  const Engine* engine = nullptr;
  std::vector<CompileOptions> variants = default_variants();
  uint64_t seed = 1;
  long count = 1000;          // programs (0: unlimited)
  double time_limit = 0;      // seconds (0: unlimited)
  double shrink_limit = 30;   // seconds spent shrinking one counterexample
  bool stop_at_first = false; // the catch campaign stops at the first disagreement
  bool progress = true;       // the live progress line on stderr
  // Seconds between progress lines; 0: 0.25 on a terminal, 5 otherwise.
  double progress_interval = 0;
  std::filesystem::path out; // where bundles go
  // Where several processes run the campaign together (the ranks of the mpi
  // engine under mpirun: every rank generates and checks every program, and
  // the engine's runs are collectives), the decisions that depend on the
  // clock or a signal (stop the campaign, stop shrinking) must be the same
  // on all: given this process's and where it stands (a number the same on
  // every process in step: the program, the decisions so far, the failures
  // found), `agree` returns the one every process takes (rank 0's), or
  // throws when the processes stand in different places. Empty: each
  // decides alone.
  std::function<bool(bool mine, uint64_t where)> agree;
  bool write_bundles = true; // false: counterexamples found but not saved (ranks but 0)
};

struct Counterexample {
  long program = 0;         // index of the program that failed (from 0)
  double seconds = 0;       // campaign time when found (before shrinking)
  CompileOptions options;   // the variant that disagreed
  std::string disagreement; // of the shrunk case
  int nodes = 0, lines = 0; // size of the shrunk program
  std::filesystem::path bundle;
};

struct CampaignResult {
  long programs = 0;
  double seconds = 0;
  bool interrupted = false; // stopped by SIGINT (Ctrl-C): the figures so far
  ElementCounts counts;     // how the output elements of agreeing checks were compared
  std::vector<Counterexample> failures;
};

// Runs until the count, the time limit or SIGINT (Ctrl-C), whichever comes
// first; SIGINT ends the campaign after the current program, and the result
// says so (interrupted) so that the caller prints the summary so far.
CampaignResult run_campaign(const CampaignOptions& options);

// The class of a disagreement line, for summaries: "nondeterminism",
// "error vs error", "error vs results", "values", "exception", "generator".
std::string disagreement_class(const std::string& disagreement);

} // namespace strata
