// An abstract evaluation of a kernel's element function over its loop
// variables (the components of the element's index), shared by the
// recognisers that read the shape of a computation off an element:
// contractions (fusion/contraction.h) and leaf views (fusion/leaf_view.h).
// A value stands for a loop variable, an index of loop variables, a read of a
// manifest array at such an index (some of the element's leaves, after
// `proj`), or anything else (Unknown). Only variables, `let`, `proj`, `ix`
// and `!` are seen through; every other form is Unknown.
#pragma once

#include <initializer_list>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "fusion/kernel_graph.h"

namespace strata::abstract {

struct Unknown {};
struct LoopVar {
  int var;
};
struct LoopIndex {
  std::vector<int> vars;
};
// (! A ix) with ix an index of loop variables, then `proj`s: the leaves
// [first_leaf, first_leaf + leaf_count) of A's element, of type `type`.
struct ArrayRead {
  ArrayId array = -1;
  std::vector<int> vars; // vars[d]: the loop variable that indexes dimension d
  Type type;             // the part of A's element read
  size_t first_leaf = 0, leaf_count = 0;
  // Whether the read is of A's whole element (no `proj` taken).
  bool whole(const KernelGraph& g) const {
    return first_leaf == 0 && type == g.arrays[size_t(array)].type.elem();
  }
};
using Value = std::variant<Unknown, LoopVar, LoopIndex, ArrayRead>;

class ElementAbstraction {
public:
  // `param` (an index of `rank` components) is bound to the loop variables
  // 0 .. rank-1, in order.
  ElementAbstraction(const KernelGraph& g, const std::string& param, int rank);

  void bind(const std::string& name, Value v) {
    bound_.push_back(v);
    env_[name] = std::move(v);
  }
  Value eval(const Exp& e);

  // Whether a recogniser that computes the element from `reads` alone (and
  // checks that they are in range) skips no check of the element: every
  // value bound so far (by `let`s eval saw through, and by bind) is an index
  // of loop variables or a read of the same array at the same loop
  // variables as one of `reads`. An unused binding that could fail (a
  // checked `!!`, an integer division, a read of another array) must fail
  // where the element is computed (docs/language.md, "Errors"),
  // so such an element is no view and no contraction.
  bool bindings_within(std::initializer_list<const ArrayRead*> reads) const;

private:
  const KernelGraph& g_;
  std::map<std::string, Value> env_;
  std::vector<Value> bound_; // every value bound, in order
};

} // namespace strata::abstract
