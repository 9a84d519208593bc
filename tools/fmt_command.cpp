// strata fmt FILE [-i]: the canonical text form of a program, its comments
// kept (core/format.h).
#include <fstream>
#include <iostream>
#include <sstream>

#include "core/atomic_file.h"
#include "core/format.h"
#include "tools/commands.h"
#include "tools/options.h"

namespace strata::tool {

int fmt_command(const Args& args) {
  po::options_description options(
      "usage: strata fmt FILE [-i]\n\n"
      "Prints the program in canonical form (the form the printer emits and\n"
      "the parser reads back to the same program), keeping every comment: one\n"
      "on a line of its own before the form it preceded, one after code at the\n"
      "end of the line where the form it followed ends. When a comment cannot\n"
      "be placed, fmt says so and (with -i) leaves the file as it is.\n\noptions");
  options.add_options()("in-place,i", "rewrite FILE instead of printing");
  ParsedArgs parsed = parse_args(args, options);
  if (parsed.help) {
    std::cout << options << "\n";
    return 0;
  }
  if (parsed.positional.size() != 1)
    throw Error(ErrorKind::Usage, "fmt: expected exactly one program FILE");
  const std::string& file = parsed.positional.front();
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(ErrorKind::Input, file + ": cannot open program file");
  std::ostringstream text;
  text << in.rdbuf();
  std::string canonical = format_program(text.str(), file);
  if (!parsed.vars.count("in-place")) {
    std::cout << canonical;
    return 0;
  }
  write_file_atomically(file, canonical); // a failure never loses the original
  return 0;
}

} // namespace strata::tool
