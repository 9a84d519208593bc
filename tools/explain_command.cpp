// strata explain FILE [name=in.npy ...] --at I,J,... [--result K] [--json]
//
// Prints why one output element has its value: the interpreter's evaluation
// of that element as a tree, from the output back to the input elements it
// read (interpreter/explain.h).
#include <iostream>
#include <sstream>

#include "interpreter/explain.h"
#include "oracle/explain_disagreement.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/program_files.h"

namespace strata::tool {
namespace {

// "5,2" -> (5,2); "" -> () for a rank-0 result.
Index parse_index(const std::string& text) {
  Index ix;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    size_t used = 0;
    int64_t v = 0;
    try {
      v = std::stoll(part, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != part.size())
      throw Error(ErrorKind::Usage,
                  "explain: --at expects integers separated by commas, e.g. --at 5,2; got `" +
                      text + "`");
    ix.push_back(v);
  }
  return ix;
}

} // namespace

int explain_command(const Args& args) {
  po::options_description options(
      "usage: strata explain FILE [name=in.npy ...] --at I,J,... [options]\n\n"
      "Explains one element of a program's result: the interpreter's evaluation\n"
      "of that element as a tree, each scalar sub-expression with its value, each\n"
      "array read with its index and value, reductions and loops summarised by\n"
      "their first and last steps. Inputs as for `strata run`.\n\noptions");
  options.add_options()                                                                    //
      ("at", po::value<std::string>(), "the element's index, e.g. 5,2 (empty for rank 0)") //
      ("result,r", po::value<size_t>()->default_value(0), "which result of an atuple")     //
      ("json", "print the tree as JSON")                                                   //
      ("max-nodes", po::value<int64_t>()->default_value(ExplainOptions{}.max_nodes),
       "cut the tree after this many nodes") //
      ("edge", po::value<int>()->default_value(ExplainOptions{}.edge),
       "steps shown at each end of a reduction or loop");
  ParsedArgs parsed = parse_args(args, options);
  if (parsed.help) {
    std::cout << options << "\n";
    return 0;
  }
  if (parsed.positional.empty()) throw Error(ErrorKind::Usage, "explain: expected a program FILE");
  if (!parsed.vars.count("at"))
    throw Error(ErrorKind::Usage, "explain: expected --at I,J,... naming the element");

  std::string file = parsed.positional.front();
  std::vector<std::string> assignments(parsed.positional.begin() + 1, parsed.positional.end());
  Program program = load_program(file);
  std::vector<Array> inputs = assignments.empty() && !program.params.empty()
                                  ? load_sibling_inputs(program, file)
                                  : load_inputs(program, assignments);
  ExplainOptions opts;
  opts.max_nodes = parsed.vars["max-nodes"].as<int64_t>();
  opts.edge = parsed.vars["edge"].as<int>();
  std::cout << explain_element(
      program, inputs, parsed.vars["result"].as<size_t>(),
      parse_index(parsed.vars["at"].as<std::string>()),
      parsed.vars.count("json") ? ExplainFormat::Json : ExplainFormat::Text, opts);
  return 0;
}

} // namespace strata::tool

namespace strata::tool {

std::string explain_difference(const Program& program, const std::vector<Array>& inputs,
                               const std::string& difference) {
  std::string tree = explain_disagreement(program, inputs, difference);
  if (tree.empty()) return "";
  std::string out = "      the oracle's evaluation of that element (strata explain):\n";
  std::stringstream lines(tree);
  for (std::string line; std::getline(lines, line);)
    out += "        " + line + "\n";
  return out;
}

} // namespace strata::tool
