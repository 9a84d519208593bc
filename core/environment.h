// Every environment variable the strata command and library read, written
// once: `strata --help` prints this table and docs/environment.md describes
// each (a test checks that every STRATA_* name the sources read is here and
// there). Each variable is read where it acts (cache/, core/array.cpp, jit/).
#pragma once

#include <vector>

namespace strata {

struct EnvironmentVariable {
  const char* name;
  const char* value;   // what it takes: "DIR", "off", "N", ...
  const char* meaning; // one line
};

const std::vector<EnvironmentVariable>& environment_variables();

} // namespace strata
