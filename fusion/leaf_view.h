// Leaf views: a generate kernel whose every element is its own element of
// another array the kernel graph makes, or a `proj` of it (a `map` that takes
// one component of a tuple array, as after `(alet ((ps (generate ... (tuple
// call put)))) (atuple (map proj0 ps) (map proj1 ps)))`), computes nothing:
// its result is some of that array's leaves (arrays are stored one buffer per
// scalar leaf, docs/language.md), which an engine may share instead of
// copying. docs/fusion.md, "Leaf views".
//
// Only arrays made by kernels are viewed (never a program input, whose
// storage may be the caller's, nor a literal or a loop state), and only where
// the result's shape equals the viewed array's, which the engine compares at
// run time after evaluating the delayed shape and running its checks as for
// any generate: then every read is in range and no element can fail.
#pragma once

#include <optional>

#include "fusion/kernel_graph.h"

namespace strata {

struct LeafView {
  ArrayId array = -1;    // the viewed array
  size_t first_leaf = 0; // the result's leaves are the array's [first_leaf, first_leaf + leaves)
  size_t leaves = 0;
};

// The view that generate `g`'s delayed body is, if it is one.
std::optional<LeafView> leaf_view(const KernelGraph& graph, const kn::Generate& g);

} // namespace strata
