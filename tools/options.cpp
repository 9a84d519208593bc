#include "tools/options.h"

#include "core/error.h"

namespace strata::tool {

ParsedArgs parse_args(const std::vector<std::string>& args, po::options_description& options) {
  options.add_options()("help,h", "show this help");
  po::options_description all;
  all.add(options).add_options()("positional", po::value<std::vector<std::string>>(), "");
  po::positional_options_description pos;
  pos.add("positional", -1);
  ParsedArgs parsed;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), parsed.vars);
    po::notify(parsed.vars);
  } catch (const po::error& e) {
    throw Error(ErrorKind::Usage, e.what());
  }
  parsed.help = parsed.vars.count("help") > 0;
  if (parsed.vars.count("positional"))
    parsed.positional = parsed.vars["positional"].as<std::vector<std::string>>();
  return parsed;
}

void add_math_option(po::options_description& options) {
  options.add_options()("math", po::value<std::string>(),
                        "exact (the default): library functions (exp log sin cos tan pow) as "
                        "the interpreter computes them, every result bitwise; fast: each within "
                        "4 ULP (a vector math library, the jit), checked under bounds");
}

MathMode math_option(const po::variables_map& vars) {
  if (!vars.count("math")) return MathMode::Exact;
  const std::string& v = vars["math"].as<std::string>();
  if (std::optional<MathMode> m = parse_math_mode(v)) return *m;
  throw Error(ErrorKind::Usage, "--math " + v + ": unknown mode (accepted: exact, fast)");
}

} // namespace strata::tool
