// What `strata bench` measured, and the three ways it is shown: a table, a
// JSON file in Google Benchmark's format (so its tools/compare.py compares
// two runs) and an SVG plot of every engine's run time side by side.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace strata::tool {

struct BenchRow {
  std::string engine;       // "interp", "tbb", ...
  std::string fusion;       // "on", "off", or "-" for the interpreter
  double compile_ms = 0;    // engine->compile, once
  std::vector<double> runs; // wall milliseconds of each timed run
  std::vector<double> cpu;  // process CPU milliseconds of each timed run
  bool stable = false;      // the median settled before the time ran out
  // The runs spread too far to trust the median (over 1.5x the fastest run:
  // another process held the cores), or it had not settled.
  bool noisy() const { return !stable || median() > 1.5 * min(); }
  std::string verified; // "oracle", "yes", or why not
  double bytes = 0;     // inputs and results of one run
  double median() const;
  double min() const;
  double max() const;
  std::string label() const; // "tbb fused", "interp"
};

struct BenchRun {
  std::string program; // the file, as given
  std::string inputs;  // "n=100000 (generated, seed 1)", "xs=xs.npy", ...
  std::vector<BenchRow> rows;
  int threads = 0; // --threads, 0: the default
};

// The table: engine, fusion, compile, median, min, max, runs, speed-up over
// the interpreter, throughput, verified.
void print_bench_table(const BenchRun& run, std::ostream& out);

// Google Benchmark's JSON: a context and, per row, one "iteration" entry per
// run and the mean, median and stddev aggregates, named PROGRAM/ENGINE/fused
// (or /unfused; the interpreter PROGRAM/interp), times in microseconds; the
// compile time as NAME/compile.
void write_bench_json(const BenchRun& run, const std::string& path);

// Horizontal bars of the median run time per row on a log scale, whiskers
// from min to max, the speed-up over the interpreter written beside.
void write_bench_svg(const BenchRun& run, const std::string& path);

} // namespace strata::tool
