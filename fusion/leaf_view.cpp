#include "fusion/leaf_view.h"

#include "fusion/element_abstraction.h"

namespace strata {

std::optional<LeafView> leaf_view(const KernelGraph& graph, const kn::Generate& g) {
  const Delayed& d = g.body;
  if (d.elem.params.size() != 1) return std::nullopt;
  int rank = d.type.rank();
  abstract::ElementAbstraction a(graph, d.elem.params[0].name, rank);
  abstract::Value v = a.eval(*d.elem.body);
  auto* read = std::get_if<abstract::ArrayRead>(&v);
  if (!read || !a.bindings_within({read})) return std::nullopt;
  const ManifestArray& source = graph.arrays[size_t(read->array)];
  if (source.origin != ManifestArray::Origin::Kernel || source.type.rank() != rank ||
      read->type != d.type.elem())
    return std::nullopt;
  for (int k = 0; k < rank; ++k) // the element's own index, dimension for dimension
    if (read->vars[size_t(k)] != k) return std::nullopt;
  return LeafView{read->array, read->first_leaf, read->leaf_count};
}

} // namespace strata
