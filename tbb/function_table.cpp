#include "tbb/function_table.h"

#include "core/overload.h"
#include "fusion/graph_run.h"

namespace strata::tbbe {

FunctionTable::FunctionTable(const KernelGraph& g) : graph_(g) {
  for (size_t i = 0; i < g.arrays.size(); ++i)
    scope_[g.arrays[i].name] = {int(i), g.arrays[i].type};
  block(g.body);
}

const ScalarFunction& FunctionTable::at(const void* node, bool variant) const {
  auto it = functions_.find({node, variant});
  if (it == functions_.end())
    throw Error(ErrorKind::Type, "tbb: scalar code was not compiled (internal error)");
  return it->second;
}

void FunctionTable::lambda(const Lambda& f) {
  functions_.emplace(std::pair{&f, false}, compile_function(f, scope_));
}

void FunctionTable::closed(const ExpPtr& e) {
  if (e)
    functions_.emplace(std::pair{e.get(), false}, compile_function(Lambda{{}, e, e->loc}, scope_));
}

void FunctionTable::delayed(const Delayed& d) {
  closed(d.shape);
  lambda(d.elem);
  for (const Check& c : d.checks) {
    closed(c.a);
    closed(c.b);
  }
}

void FunctionTable::block(const Block& b) {
  for_each_kernel(b, [&](const Kernel& k) {
    std::visit(
        Overload{
            [&](const kn::Generate& x) { delayed(x.body); },
            [&](const kn::Fold& x) {
              lambda(x.f);
              closed(x.seed);
              delayed(x.input);
            },
            [&](const kn::FoldSeg& x) {
              lambda(x.f);
              closed(x.seed);
              delayed(x.input);
            },
            [&](const kn::Scan& x) {
              lambda(x.f);
              closed(x.seed);
              delayed(x.input);
            },
            [&](const kn::Permute& x) {
              lambda(x.combine);
              lambda(x.target);
              delayed(x.defaults);
              delayed(x.source);
            },
            [&](const kn::Stencil& x) {
              for (bool interior : {false, true}) {
                WindowInfo w{x.f.params[0].name, int(x.input), x.window, x.boundary, interior};
                functions_.emplace(std::pair{&x.f, interior}, compile_function(x.f, scope_, w));
              }
            },
            [&](const kn::Loop&) {}, // its blocks: for_each_kernel
            [&](const kn::Branch& x) { closed(x.cond); }},
        k.body);
  });
}

} // namespace strata::tbbe
