// Building scalar code during fusion (fusion/fuse.cpp): every node built
// here gets its type, so that engines can rely on types.
#pragma once

#include <string>
#include <vector>

#include "core/ir.h"
#include "fusion/kernel_graph.h"

namespace strata::fusion {

inline const Type kI64 = Type::scalar(ScalarKind::I64);

inline ExpPtr mk(ExpNode n, Type t, const SrcLoc& loc = {}) {
  auto e = make_exp(std::move(n), loc);
  e->type = std::move(t);
  return e;
}
inline ExpPtr var(const std::string& name, const Type& t) {
  return mk(ex::Var{name}, t);
}
inline ExpPtr proj(int k, const ExpPtr& tuple) {
  return mk(ex::Proj{k, tuple}, tuple->type.elems()[size_t(k)]);
}
inline ExpPtr index_of(std::vector<ExpPtr> comps) {
  int rank = int(comps.size());
  return mk(ex::Index{std::move(comps)}, Type::index(rank));
}
inline ExpPtr prim(Prim op, ExpPtr a, ExpPtr b) {
  Type t = a->type;
  return mk(ex::PrimApp{op, {std::move(a), std::move(b)}}, t);
}
inline ExpPtr const_i64(int64_t v) {
  return mk(ex::Const{Scalar::make<int64_t>(v)}, kI64);
}
inline ExpPtr let(std::vector<ex::Binding> bindings, ExpPtr body) {
  Type t = body->type;
  return mk(ex::Let{std::move(bindings), std::move(body)}, t);
}
// Applies a lambda by binding its parameters. Arguments only mention names
// made by `fresh` (never a program's name), so nothing is captured even
// though `let` binds sequentially.
inline ExpPtr apply(const Lambda& f, std::vector<ExpPtr> args) {
  std::vector<ex::Binding> bs;
  for (size_t i = 0; i < args.size(); ++i)
    bs.push_back(ex::Binding{f.params[i].name, std::move(args[i]), f.params[i].loc});
  return let(std::move(bs), f.body);
}
inline AccPtr array_ref(const ManifestArray& a) {
  auto r = make_acc(ac::Var{a.name});
  r->type = a.type;
  return r;
}

} // namespace strata::fusion
