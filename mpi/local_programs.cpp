#include "mpi/local_programs.h"

#include <functional>
#include <map>

#include "core/ir_walk.h"
#include "core/overload.h"

namespace strata::mpi {
namespace {

const std::string* array_var(const AccPtr& a) {
  const auto* v = a ? std::get_if<ac::Var>(&a->node) : nullptr;
  return v ? &v->name : nullptr;
}

ExpPtr the(const std::string& array, const SrcLoc& loc) {
  return make_exp(ex::The{make_acc(ac::Var{array}, loc)}, loc);
}

// The names that hold the element's own index where `x` is: `aligned` and
// the let-bound aliases of it, less any a binder rebinds. Scoped through
// let (sequential), let-bound functions and while.
using Aligned = std::set<std::string>;

// Calls on_child(child, aligned names there) for each child of `x`.
template <class F> void children_in_scope(const Exp& x, const Aligned& in, F&& on_child) {
  auto without = [](Aligned s, const Lambda& f) {
    for (const Param& p : f.params)
      s.erase(p.name);
    return s;
  };
  if (const auto* l = std::get_if<ex::Let>(&x.node)) {
    Aligned s = in;
    for (const ex::Binding& b : l->bindings) {
      if (b.value) on_child(b.value, s);
      if (b.fn) on_child(b.fn->body, without(s, *b.fn));
      const auto* v = b.value ? std::get_if<ex::Var>(&b.value->node) : nullptr;
      if (v && s.count(v->name))
        s.insert(b.name);
      else
        s.erase(b.name);
    }
    on_child(l->body, s);
    return;
  }
  if (const auto* w = std::get_if<ex::While>(&x.node)) {
    on_child(w->init, in);
    on_child(w->cond.body, without(in, w->cond));
    on_child(w->step.body, without(in, w->step));
    return;
  }
  for_each_child_slot(
      const_cast<Exp&>(x), [&](ExpPtr& p) { on_child(p, in); }, [](AccPtr&) {});
}

bool aligned_read(const ex::Read& r, const Aligned& s) {
  const auto* v = std::get_if<ex::Var>(&r.index->node);
  return v && s.count(v->name);
}

void collect(const Exp& x, const Names& blocks, const Aligned& s, Names& out) {
  if (const auto* n = std::get_if<ex::ShapeOf>(&x.node); n && array_var(n->array)) return;
  if (const auto* n = std::get_if<ex::SizeOf>(&x.node); n && array_var(n->array)) return;
  auto use = [&](const AccPtr& a) {
    const std::string* n = array_var(a);
    if (n && blocks.count(*n)) out.insert(*n);
  };
  if (const auto* r = std::get_if<ex::Read>(&x.node)) {
    if (!aligned_read(*r, s)) use(r->array);
  } else if (const auto* r = std::get_if<ex::LinearRead>(&x.node)) {
    use(r->array);
  } else if (const auto* t = std::get_if<ex::The>(&x.node)) {
    use(t->array);
  }
  children_in_scope(x, s, [&](const ExpPtr& c, const Aligned& cs) {
    if (c) collect(*c, blocks, cs, out);
  });
}

ExpPtr rewrite(const ExpPtr& e, const Names& blocks, const Aligned& s,
               const std::string& local_index) {
  if (!e) return e;
  auto held = [&](const AccPtr& a) {
    const std::string* n = array_var(a);
    return n && blocks.count(*n) ? n : nullptr;
  };
  if (const auto* n = std::get_if<ex::ShapeOf>(&e->node))
    if (const std::string* a = held(n->array)) return the(shape_param(*a), e->loc);
  if (const auto* n = std::get_if<ex::SizeOf>(&e->node))
    if (const std::string* a = held(n->array)) return the(size_param(*a), e->loc);
  auto c = std::make_shared<Exp>(*e);
  if (auto* r = std::get_if<ex::Read>(&c->node); r && held(r->array) && aligned_read(*r, s)) {
    r->index = make_exp(ex::Var{local_index}, r->index->loc);
    return c;
  }
  // A let-bound function is shared with the original: copy it before its
  // body is rewritten.
  if (auto* l = std::get_if<ex::Let>(&c->node))
    for (ex::Binding& b : l->bindings)
      if (b.fn) b.fn = std::make_shared<Lambda>(*b.fn);
  std::map<const Exp*, Aligned> scope;
  children_in_scope(*c, s, [&](const ExpPtr& child, const Aligned& cs) {
    if (child) scope[child.get()] = cs;
  });
  for_each_child_slot(
      *c, [&](ExpPtr& p) { p = rewrite(p, blocks, scope.at(p.get()), local_index); },
      [](AccPtr&) {});
  return c;
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
  Aligned s;
  if (!aligned.empty()) s.insert(aligned);
  if (e) collect(*e, blocks, s, out);
  return out;
}

Names uses(const ExpPtr& e, const Names& names) {
  Names out;
  std::function<void(const Exp&)> visit = [&](const Exp& x) {
    for_each_child(x, visit, [&](const Acc& a) {
      const auto* v = std::get_if<ac::Var>(&a.node);
      if (v && names.count(v->name)) out.insert(v->name);
    });
  };
  if (e) visit(*e);
  return out;
}

Names uses(const Lambda& f, const Names& names) {
  return uses(f.body, names);
}

Names needs_whole(const Lambda& f, const Names& blocks, const std::string& aligned) {
  return needs_whole(f.body, blocks, aligned);
}

ExpPtr localize(const ExpPtr& e, const Names& blocks, const std::string& aligned,
                const std::string& local_index) {
  Aligned s;
  if (!aligned.empty()) s.insert(aligned);
  return rewrite(e, blocks, s, local_index);
}

Lambda localize(const Lambda& f, const Names& blocks) {
  Lambda g = f;
  g.body = localize(f.body, blocks);
  return g;
}

std::string aligned_index(const Delayed& d) {
  return d.elem.params.at(0).name;
}

AccPtr combine_pairs(const Lambda& combine, int rank) {
  auto var = [](const std::string& n) { return make_acc(ac::Var{n}); };
  auto at = [&](int c) {
    return make_exp(
        ex::Proj{c, make_exp(ex::Read{var("mpi__pairs"), make_exp(ex::Var{"mpi__i"})})});
  };
  Lambda target, value;
  target.params = value.params = {Param{"mpi__i", Type::index(rank), {}, true}};
  target.body = at(1);
  value.body = at(0);
  AccPtr source = make_acc(ac::Generate{make_exp(ex::ShapeOf{var("mpi__pairs")}), value});
  return make_acc(ac::Permute{combine, var("mpi__acc"), target, source});
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
