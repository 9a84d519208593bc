// Use analysis for fusion's sharing rule (fusion/fuse.cpp): how the
// elements of an alet-bound array are used in its scope.
#pragma once

#include <string>

#include "core/ir.h"

namespace strata::fusion {

struct Uses {
  int elementwise = 0;  // read element by element by a consumer (map, fold, ...)
  bool indexed = false; // read at arbitrary indices (!, !!, the, stencil, foldseg segs)
  bool in_loop = false; // referenced inside an awhile condition or body
  void add(const Uses& o) {
    elementwise += o.elementwise;
    indexed |= o.indexed;
    in_loop |= o.in_loop;
  }
};

// The uses of binding k of `l` in the bindings after it (up to one that
// rebinds its name) and the body.
Uses uses_after(const ac::Alet& l, size_t k);

} // namespace strata::fusion
