// What "cheap" means to fusion: the size (node count) of an expression and
// whether it loops. A delayed array whose index function is cheap may be
// recomputed per read instead of being made manifest (fusion/fuse.cpp).
#pragma once

#include "core/ir.h"

namespace strata::fusion {

struct Cost {
  int nodes = 0;
  bool loops = false;
};
// Adds the nodes of `e` (of `f`'s body) to `c`.
void cost(const Exp& e, Cost& c);
void cost(const Lambda& f, Cost& c);

// An index function recomputed per read stays cheap below this many nodes.
constexpr int kCheapNodes = 32;

} // namespace strata::fusion
