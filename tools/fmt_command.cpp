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
namespace {

// `text` with every line ending ("\n" or "\r\n") written as `ending`.
std::string with_line_ending(const std::string& text, const std::string& ending) {
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    if (text[i] == '\n')
      out += ending;
    else
      out += text[i];
  }
  return out;
}

} // namespace

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
  // The file's line ending is kept: a file whose first line ends in CRLF is
  // formatted without its CRs and written with CRLF on every line.
  std::string source = text.str();
  size_t first_newline = source.find('\n');
  bool crlf =
      first_newline != std::string::npos && first_newline > 0 && source[first_newline - 1] == '\r';
  std::string canonical = format_program(crlf ? with_line_ending(source, "\n") : source, file);
  if (crlf) canonical = with_line_ending(canonical, "\r\n");
  if (!parsed.vars.count("in-place")) {
    std::cout << canonical;
    return 0;
  }
  write_file_atomically(file, canonical); // a failure never loses the original
  return 0;
}

} // namespace strata::tool
