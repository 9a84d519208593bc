#include "tools/bundle_replay.h"

#include <iostream>

#include "oracle/bundle.h"

namespace strata::tool {

bool is_bundle_target(const std::string& target) {
  return is_bundle(target);
}

int replay_bundle_command(const std::string& dir) {
  Bundle b = read_bundle(dir);
  std::cout << "bundle " << dir << ": engine " << b.engine << ", fusion "
            << (b.fusion ? "on" : "off") << ", " << (b.checked ? "checked" : "unchecked")
            << (b.seed.empty() ? "" : ", found with " + b.seed) << "\n";
  if (!b.disagreement.empty()) std::cout << "recorded: " << b.disagreement << "\n";
  DiffReport r = replay_bundle(b);
  if (r.agree) {
    std::cout << "ok    " << b.engine << " and interp agree now\n";
    return 0;
  }
  std::cerr << "FAIL  " << r.disagreement << "\n";
  return 1;
}

} // namespace strata::tool
