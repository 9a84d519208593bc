#include "fusion/graph_inputs.h"

#include "core/runtime_errors.h"

namespace strata {

void check_graph_input_types(const KernelGraph& graph,
                             const std::vector<std::pair<Type, Shape>>& inputs) {
  if (inputs.size() != graph.inputs.size())
    throw wrong_input_count(graph.inputs.size(), inputs.size(), SrcLoc{});
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ManifestArray& a = graph.arrays[size_t(graph.inputs[i])];
    if (inputs[i].first != a.type)
      throw wrong_input_type(a.source_name, a.type, inputs[i].first, inputs[i].second, SrcLoc{});
  }
}

void check_graph_inputs(const KernelGraph& graph, const std::vector<Array>& inputs) {
  std::vector<std::pair<Type, Shape>> types;
  for (const Array& a : inputs)
    types.emplace_back(a.type(), a.shape());
  check_graph_input_types(graph, types);
}

} // namespace strata
