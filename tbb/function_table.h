// Every piece of scalar code of a kernel graph, compiled once.
//
// The engine compiles a program's kernel graph when the program is compiled
// (Engine::compile), never when it runs: each Lambda and each closed
// expression (shapes, seeds, checks, branch conditions) becomes a
// ScalarFunction, found again at run time by the address of its IR node.
#pragma once

#include <map>
#include <utility>

#include "fusion/kernel_graph.h"
#include "tbb/scalar_compiler.h"

namespace strata::tbbe {

class FunctionTable {
public:
  explicit FunctionTable(const KernelGraph& g);

  const ScalarFunction& of(const Lambda& f) const { return at(&f, false); }
  // A closed expression, as a function of no parameters.
  const ScalarFunction& of(const Exp& e) const { return at(&e, false); }
  // A stencil function, for lanes whose window lies inside the array or not.
  const ScalarFunction& stencil(const Lambda& f, bool interior) const { return at(&f, interior); }
  const ArrayScope& scope() const { return scope_; }
  size_t size() const { return functions_.size(); }

private:
  const ScalarFunction& at(const void* node, bool variant) const;
  void block(const Block& b);
  void lambda(const Lambda& f);
  void closed(const ExpPtr& e);
  void delayed(const Delayed& d);

  const KernelGraph& graph_;
  ArrayScope scope_;
  std::map<std::pair<const void*, bool>, ScalarFunction> functions_;
};

} // namespace strata::tbbe
