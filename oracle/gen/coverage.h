// Coverage of generated programs: which forms, primitives, scan kinds, stencil
// boundaries, element types and ranks a program uses. The coverage report
// (properties/coverage_test.cpp, `strata_gen_coverage`) counts, over many
// generated programs, how many programs use each, and fails if any form or
// primitive of docs/language.md is never generated.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/ir.h"

namespace strata::gen {

// Keys look like "exp:let", "acc:scanl'", "prim:popcount", "boundary:mirror",
// "type:f32", "rank:3", "spec:all", "combiner:non-commutative" (a fold or scan
// whose function does not provably commute; "-tuple" over tuples).
std::set<std::string> features(Program& p);
// What the text wrote before checking expanded it: "sugar:take", "fn:define",
// "fn:adefine", "fn:let" (a let-bound function), "fn:by-name" (a primitive
// or function passed by name), "param:inferred" (a parameter without a type).
std::set<std::string> surface_features(Program& parsed);
// Every key that must appear (all forms of sections 3 and 5, all primitives,
// all boundaries, every scalar type and ranks 0-3).
std::vector<std::string> required_features();

struct CoverageReport {
  int64_t programs = 0;
  int64_t runtime_errors = 0;                   // programs whose interpretation raised an error
  std::map<std::string, int64_t> programs_with; // key -> programs using it

  std::vector<std::string> missing() const;
  // A table: key, programs, percent; missing keys flagged.
  std::string table() const;
};

} // namespace strata::gen
