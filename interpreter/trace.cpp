#include "interpreter/trace.h"

#include <algorithm>
#include <cctype>

#include "core/array_format.h"
#include "interpreter/value.h"

namespace strata {

std::string summarize_array(const Array& a, int edge) {
  // describe_array gives "TYPE shape SHAPE[ float stats]"; the values go after the shape.
  std::string head = a.type().str() + " shape " + shape_str(a.shape());
  std::string stats = describe_array(a).substr(head.size());
  std::string values = "[";
  int64_t n = a.size(), e = std::max(edge, 1);
  for (int64_t i = 0; i < n; ++i) {
    if (n > 2 * e && i == e) {
      values += "..., ";
      i = n - e;
    }
    values += value_str(read_element(a, i)) + (i + 1 < n ? ", " : "");
  }
  return head + " " + values + "]" + stats;
}

bool trace_selected(const std::string& filter, const SrcLoc& loc, std::string_view op,
                    std::string_view label) {
  if (filter.empty()) return true;
  bool digits = std::all_of(filter.begin(), filter.end(),
                            [](unsigned char c) { return std::isdigit(c) != 0; });
  if (digits) return loc.known() && std::to_string(loc.line) == filter;
  return filter == op || (!label.empty() && filter == label);
}

} // namespace strata
