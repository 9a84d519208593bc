// Every environment variable the strata command and library read, written
// once: `strata --help` prints this table, docs/environment.md describes
// each (a test checks that every STRATA_* name the sources read is here and
// there), and this is the one place their values are checked. Each variable
// is read where it acts (cache/, core/array.cpp, jit/, mpi/) through the
// readers below, which take its value only if it is well-formed: a bad value
// is a usage error naming the variable, never ignored.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace strata {

// What a variable's value must be.
enum class EnvValue {
  Bytes, // a whole number of bytes, optionally K, M or G (binary): 1048576, 64K, 2g
  Count, // a whole number
  Word,  // one of `accepted`
  Dir,   // a directory, or a path where one can be made (not a file)
  Text,  // anything; its reader checks it (STRATA_JIT_CPU: LLVM knows the names)
};

struct EnvironmentVariable {
  const char* name;
  const char* value;   // what it takes: "DIR", "off", "N", ...
  const char* meaning; // one line
  EnvValue kind = EnvValue::Text;
  std::vector<const char*> accepted = {}; // Word: the values it takes
};

const std::vector<EnvironmentVariable>& environment_variables();

// The readers: nothing when the variable is unset or empty, else its value,
// checked against its kind in the table (a usage error naming the variable
// and what it expects otherwise). `name` must be in the table.
std::optional<uint64_t> environment_bytes(const char* name);
std::optional<uint64_t> environment_count(const char* name);
std::optional<std::string> environment_word(const char* name);
std::optional<std::string> environment_dir(const char* name);
std::optional<std::string> environment_text(const char* name);

// The usage error for a Word variable's value that is not one it accepts:
// "STRATA_JIT_TIERS=fast: unknown value (accepted: tiered, optimised, quick)".
class Error;
Error unknown_environment_value(const char* name, const std::string& value);

// Checks every variable of the table that is set: `strata` calls it before
// running a command, so a bad value is reported whichever command reads it.
void check_environment();

// "64K" -> 65536: a whole number with an optional K, M or G (binary units;
// lower case too);
// nothing for anything else (a sign, a fraction, a value past 2^64 - 1).
std::optional<uint64_t> parse_bytes(const std::string& text);

} // namespace strata
