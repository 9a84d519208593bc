// Shared command-line parsing for the subcommands, on Boost.ProgramOptions:
// named options plus free positional arguments, with usage errors turned into
// Error(ErrorKind::Usage) so every command reports them the same way.
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <vector>

#include "core/engine.h"

namespace strata::tool {

namespace po = boost::program_options;

struct ParsedArgs {
  po::variables_map vars;
  std::vector<std::string> positional;
  bool help = false;
};

// Adds --help to `options`, parses `args`, collects positional arguments.
ParsedArgs parse_args(const std::vector<std::string>& args, po::options_description& options);

// --math exact|fast (core/engine.h MathMode): how engines may compute the
// library functions. Added by every command that compiles; the value read
// back, a usage Error naming the accepted values for any other.
void add_math_option(po::options_description& options);
MathMode math_option(const po::variables_map& vars);

} // namespace strata::tool
