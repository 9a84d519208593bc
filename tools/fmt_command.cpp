// strata fmt FILE [-i]: the canonical text form of a program.
#include <fstream>
#include <iostream>
#include <sstream>

#include "core/parser.h"
#include "core/printer.h"
#include "tools/commands.h"
#include "tools/options.h"

namespace strata::tool {

int fmt_command(const Args& args) {
  po::options_description options(
      "usage: strata fmt FILE [-i]\n\n"
      "Prints the program in canonical form (the form the printer emits and\n"
      "the parser reads back to the same program).\n\noptions");
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
  std::string canonical = print_program(parse_program(text.str(), file));
  if (!parsed.vars.count("in-place")) {
    std::cout << canonical;
    return 0;
  }
  // Write beside the file and rename over it, so a failure never loses the original.
  std::string tmp = file + ".fmt.tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << canonical;
    if (!out.flush()) throw Error(ErrorKind::Input, tmp + ": cannot write");
  }
  if (std::rename(tmp.c_str(), file.c_str()) != 0)
    throw Error(ErrorKind::Input, file + ": cannot replace");
  return 0;
}

} // namespace strata::tool
