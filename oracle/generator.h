// The random program generator of the differential harness (issue 5).
//
// A generated case is a well-typed program in the canonical text form plus
// one input array per parameter. Generation is type-directed and covers every
// form and primitive of docs/language.md (see oracle/gen/builder.h for the rules
// and docs/testing.md for the coverage table). All randomness comes from a
// gen::Choices source, so the same tape or seed always gives the same case:
//  - generate_case(seed, size) for tools, benchmarks and the coverage report;
//  - generate_case(choices, size) with a tape for RapidCheck, which shrinks the
//    tape (oracle/generator_rc.h holds the rc::Gen, so that this library does
//    not depend on RapidCheck).
// `size` (0-100, RapidCheck's size) sets the nesting budgets: small sizes give
// small programs.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "core/array.h"
#include "core/ir.h"
#include "oracle/gen/choices.h"

namespace strata {

struct GeneratedCase {
  std::string text;                // the program, as generated (valid program text)
  std::vector<std::string> params; // parameter names, in order
  std::vector<Array> inputs;       // one per parameter
  int size = 0;                    // the size it was generated at

  // Parses the text (file name "generated.strata"); does not type-check.
  Program parse() const;
  // Parses and type-checks; throws Error if either fails (a generator bug).
  Program checked() const;
};

GeneratedCase generate_case(gen::Choices& choices, int size);
GeneratedCase generate_case(uint64_t seed, int size = 50);

// The program text and the inputs, for counterexample reports.
void show_case(const GeneratedCase& c, std::ostream& out);

} // namespace strata
