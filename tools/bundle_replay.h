// `strata check DIR` on a counterexample bundle (a directory holding
// case.json, see oracle/bundle.h): replays the recorded engine, fusion and
// checking options on the bundle's program and inputs against the oracle.
#pragma once

#include <string>

namespace strata::tool {

// Whether `target` is a counterexample bundle directory.
bool is_bundle_target(const std::string& target);
// Replays it; prints what was recorded and what is seen now. Exit code: 0 when
// the engine agrees with the oracle now, 1 when the disagreement reproduces.
int replay_bundle_command(const std::string& dir);

} // namespace strata::tool
