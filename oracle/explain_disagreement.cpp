#include "oracle/explain_disagreement.h"

#include <sstream>

#include "interpreter/explain.h"

namespace strata {
namespace {

// "5,2" -> (5,2); nullopt when it is not a list of integers.
std::optional<Index> parse_components(const std::string& text) {
  Index ix;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    try {
      size_t used = 0;
      ix.push_back(std::stoll(part, &used));
      if (used != part.size()) return std::nullopt;
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return ix;
}

} // namespace

std::string explain_disagreement(const Program& program, const std::vector<Array>& inputs,
                                 const std::string& disagreement) {
  size_t at = disagreement.find("element (");
  if (at == std::string::npos) return "";
  size_t result = 0;
  size_t r = disagreement.rfind("result ", at);
  if (r != std::string::npos) result = std::strtoul(disagreement.c_str() + r + 7, nullptr, 10);
  size_t open = at + 8, close = disagreement.find(')', open);
  if (close == std::string::npos) return "";
  auto index = parse_components(disagreement.substr(open + 1, close - open - 1));
  if (!index) return "";
  try {
    ExplainOptions opts;
    opts.max_nodes = 80;
    opts.edge = 1;
    return explain_element(program, inputs, result, *index, ExplainFormat::Text, opts);
  } catch (const Error&) {
    return "";
  }
}

} // namespace strata
