#include "mpi/local_programs.h"

#include <functional>

#include "core/ir_walk.h"
#include "core/overload.h"

namespace strata::mpi {
namespace {

const std::string* array_var(const AccPtr& a) {
  const auto* v = a ? std::get_if<ac::Var>(&a->node) : nullptr;
  return v ? &v->name : nullptr;
}

bool is_var(const ExpPtr& e, const std::string& name) {
  const auto* v = std::get_if<ex::Var>(&e->node);
  return v && v->name == name;
}

ExpPtr the(const std::string& array, const SrcLoc& loc) {
  return make_exp(ex::The{make_acc(ac::Var{array}, loc)}, loc);
}

// Whether any binder below `e` (let, a let-bound function's or a while's
// parameters) binds `name`.
bool binds(const Exp& e, const std::string& name) {
  bool found = false;
  std::function<void(const Exp&)> visit = [&](const Exp& x) {
    if (const auto* l = std::get_if<ex::Let>(&x.node))
      for (const ex::Binding& b : l->bindings) {
        found |= b.name == name;
        if (b.fn)
          for (const Param& p : b.fn->params)
            found |= p.name == name;
      }
    if (const auto* w = std::get_if<ex::While>(&x.node))
      for (const Lambda* f : {&w->cond, &w->step})
        for (const Param& p : f->params)
          found |= p.name == name;
    for_each_child(x, visit, [](const Acc&) {});
  };
  visit(e);
  return found;
}

} // namespace

std::string shape_param(const std::string& array) {
  return array + "__shape";
}
std::string size_param(const std::string& array) {
  return array + "__size";
}

Names needs_whole(const ExpPtr& e, const Names& blocks, const std::string& aligned) {
  Names out;
  std::function<void(const Exp&)> visit;
  auto use = [&](const Acc& a) {
    const auto* v = std::get_if<ac::Var>(&a.node);
    if (v && blocks.count(v->name)) out.insert(v->name);
  };
  visit = [&](const Exp& x) {
    if (const auto* s = std::get_if<ex::ShapeOf>(&x.node); s && array_var(s->array)) return;
    if (const auto* s = std::get_if<ex::SizeOf>(&x.node); s && array_var(s->array)) return;
    if (const auto* r = std::get_if<ex::Read>(&x.node)) {
      const std::string* a = array_var(r->array);
      if (a && !aligned.empty() && is_var(r->index, aligned)) return;
    }
    for_each_child(x, visit, use);
  };
  if (e) visit(*e);
  return out;
}

Names needs_whole(const Lambda& f, const Names& blocks, const std::string& aligned) {
  return needs_whole(f.body, blocks, aligned);
}

ExpPtr localize(const ExpPtr& e, const Names& blocks, const std::string& aligned,
                const std::string& local_index) {
  if (!e) return e;
  auto held = [&](const AccPtr& a) {
    const std::string* n = array_var(a);
    return n && blocks.count(*n) ? n : nullptr;
  };
  if (const auto* s = std::get_if<ex::ShapeOf>(&e->node))
    if (const std::string* a = held(s->array)) return the(shape_param(*a), e->loc);
  if (const auto* s = std::get_if<ex::SizeOf>(&e->node))
    if (const std::string* a = held(s->array)) return the(size_param(*a), e->loc);
  if (const auto* r = std::get_if<ex::Read>(&e->node))
    if (held(r->array) && !aligned.empty() && is_var(r->index, aligned)) {
      auto c = std::make_shared<Exp>(*e);
      std::get<ex::Read>(c->node).index = make_exp(ex::Var{local_index}, r->index->loc);
      return c;
    }
  auto c = std::make_shared<Exp>(*e);
  // A let-bound function is shared with the original: copy it before its
  // body is rewritten.
  if (auto* l = std::get_if<ex::Let>(&c->node))
    for (ex::Binding& b : l->bindings)
      if (b.fn) b.fn = std::make_shared<Lambda>(*b.fn);
  for_each_child_slot(
      *c, [&](ExpPtr& p) { p = localize(p, blocks, aligned, local_index); }, [](AccPtr&) {});
  return c;
}

Lambda localize(const Lambda& f, const Names& blocks) {
  Lambda g = f;
  g.body = localize(f.body, blocks);
  return g;
}

std::string aligned_index(const Delayed& d) {
  const std::string& p = d.elem.params.at(0).name;
  return binds(*d.elem.body, p) ? "" : p;
}

Lambda rows_elem(const Delayed& d, const Names& blocks) {
  const Param& p = d.elem.params.at(0);
  std::string aligned = aligned_index(d);
  std::string local = p.name + "__local";
  int rank = d.type.rank();
  SrcLoc loc = d.elem.loc;
  auto local_var = [&] { return make_exp(ex::Var{local}, loc); };
  std::vector<ExpPtr> comps;
  for (int k = 0; k < rank; ++k) {
    ExpPtr c = make_exp(ex::Proj{k, local_var()}, loc);
    if (k == 0) c = make_exp(ex::PrimApp{Prim::Add, {c, the(kLoParam, loc)}}, loc);
    comps.push_back(c);
  }
  ExpPtr global = make_exp(ex::Index{std::move(comps)}, loc);
  ExpPtr body = localize(d.elem.body, blocks, aligned, local);
  Lambda f;
  f.params = {Param{local, p.type, p.loc, true}};
  f.body = make_exp(ex::Let{{ex::Binding{p.name, global, loc}}, body}, loc);
  f.loc = loc;
  return f;
}

} // namespace strata::mpi
