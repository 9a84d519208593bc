#include "fusion/graph_inputs.h"

#include "core/runtime_errors.h"

namespace strata {

void check_graph_inputs(const KernelGraph& graph, const std::vector<Array>& inputs) {
  if (inputs.size() != graph.inputs.size())
    throw wrong_input_count(graph.inputs.size(), inputs.size(), SrcLoc{});
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ManifestArray& a = graph.arrays[size_t(graph.inputs[i])];
    if (inputs[i].type() != a.type)
      throw wrong_input_type(a.source_name, a.type, inputs[i], SrcLoc{});
  }
}

} // namespace strata
