// Counterexample bundles: one self-contained directory per disagreement
// found by the harness, replayed exactly by `strata check DIR`.
//
//   DIR/program.strata      the (shrunk) program, canonical text
//   DIR/inputs/NAME.npy     one input per parameter
//   DIR/case.json           {"engine", "fusion", "checked", "order", "math", "seed", "size",
//                            "inputs": [names in parameter order], "disagreement"}
//   DIR/explanation.txt     the oracle's evaluation of the first differing
//                           element (strata explain), when the disagreement names one
//
// case.json is a flat JSON object written and read here (strings, booleans,
// numbers and one array of strings), so the bundle needs no JSON library.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/array.h"
#include "oracle/differential.h"

namespace strata {

struct Bundle {
  std::string program_text;
  std::vector<std::string> input_names; // parameter order
  std::vector<Array> inputs;
  std::string engine = "interp";
  bool fusion = true;
  bool checked = true;
  ReductionOrder order = ReductionOrder::blocked(); // the order the engine was asked for
  MathMode math = MathMode::Exact;                  // "exact" or "fast" (--math)
  std::string seed;         // how it was found: RapidCheck seed, generator seed
  int size = 0;             // generator size
  std::string disagreement; // what was seen when it was written

  // The options the engine was compiled with: fusion, checks, order, math.
  CompileOptions options() const {
    CompileOptions o;
    o.fusion = fusion;
    o.checked = checked;
    o.order = order;
    o.math = math;
    return o;
  }
};

// Writes (replacing) the bundle directory.
void write_bundle(const std::filesystem::path& dir, const Bundle& bundle);
// Reads a bundle; Error(Input) naming the file on any problem.
Bundle read_bundle(const std::filesystem::path& dir);
// A directory holding case.json.
bool is_bundle(const std::filesystem::path& dir);
// Parses, checks and runs the differential check the bundle describes.
DiffReport replay_bundle(const Bundle& bundle);

} // namespace strata
