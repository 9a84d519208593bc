// RapidCheck glue for the program generator: rc::Gen<GeneratedCase>.
//
// A case is built from a tape of uniformly random 32-bit choices (see
// oracle/gen/choices.h); RapidCheck shrinks the tape (drops entries, lowers
// them towards 0) and every shrink step rebuilds a smaller program, because
// choice 0 always picks the simplest option. Header-only so that only the
// test binaries depend on RapidCheck.
#pragma once

#include <cstdint>
#include <limits>
#include <ostream>
#include <vector>

#include <rapidcheck.h>

#include "oracle/generator.h"

namespace strata {

// A tape of up to 20 * size choices (enough for the largest programs).
inline rc::Gen<std::vector<uint32_t>> gen_choice_tape() {
  return rc::gen::scale(20.0, rc::gen::container<std::vector<uint32_t>>(rc::gen::inRange<uint32_t>(
                                  0, std::numeric_limits<uint32_t>::max())));
}

inline rc::Gen<GeneratedCase> gen_case() {
  return rc::gen::withSize([](int size) {
    return rc::gen::map(gen_choice_tape(), [size](std::vector<uint32_t> tape) {
      gen::Choices choices(std::move(tape));
      return generate_case(choices, size);
    });
  });
}

// How RapidCheck prints a case in a failure report.
inline void showValue(const GeneratedCase& c, std::ostream& os) {
  show_case(c, os);
}

} // namespace strata

namespace rc {
// Lets properties take a `const strata::GeneratedCase&` argument.
template <> struct Arbitrary<strata::GeneratedCase> {
  static Gen<strata::GeneratedCase> arbitrary() { return strata::gen_case(); }
};
} // namespace rc
