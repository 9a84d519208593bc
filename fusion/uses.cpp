#include "fusion/uses.h"
#include "core/check.h"

#include "core/ir_walk.h"
#include "core/overload.h"

namespace strata::fusion {
namespace {

class UseCounter {
public:
  UseCounter(const std::string& name) : name_(name) {}
  Uses uses;

  void acc(const Acc& a, bool indexed_position = false) {
    std::visit([&](const auto& n) { form(n, indexed_position); }, a.node);
  }
  void exp(const Exp& e) {
    // shape and size do not read elements
    if (std::holds_alternative<ex::ShapeOf>(e.node) || std::holds_alternative<ex::SizeOf>(e.node))
      return;
    for_each_child(
        e, [&](const Exp& x) { exp(x); }, [&](const Acc& a) { array_read(a); });
  }

private:
  const std::string& name_;
  bool in_loop_ = false;

  void array_read(const Acc& a) {
    if (std::get<ac::Var>(a.node).name == name_) {
      uses.indexed = true;
      uses.in_loop |= in_loop_;
    }
  }
  void lambda(const Lambda& f) { exp(*f.body); }
  void form(const ac::Var& v, bool indexed_position) {
    if (v.name != name_) return;
    if (indexed_position)
      uses.indexed = true;
    else
      ++uses.elementwise;
    uses.in_loop |= in_loop_;
  }
  void form(const ac::Alet& l, bool) {
    for (const auto& b : l.bindings) {
      acc(*b.value);
      if (b.name == name_) return; // shadowed from here on
    }
    acc(*l.body);
  }
  void form(const ac::ATuple& t, bool) {
    for (const auto& x : t.elems)
      acc(*x);
  }
  void form(const ac::AProj& p, bool) { acc(*p.tuple); }
  void form(const ac::Use&, bool) {}
  void form(const ac::Unit& u, bool) { exp(*u.value); }
  void form(const ac::Generate& g, bool) {
    exp(*g.shape);
    lambda(g.f);
  }
  void form(const ac::Fill& f, bool) {
    exp(*f.shape);
    exp(*f.value);
  }
  void form(const ac::Map& m, bool) {
    lambda(m.f);
    acc(*m.a);
  }
  void form(const ac::ZipWith& z, bool) {
    lambda(z.f);
    acc(*z.a);
    acc(*z.b);
  }
  void form(const ac::Fold& f, bool) {
    lambda(f.f);
    if (f.seed) exp(*f.seed);
    acc(*f.a);
  }
  void form(const ac::FoldSeg& f, bool) {
    lambda(f.f);
    exp(*f.seed);
    acc(*f.a);
    acc(*f.segs, true);
  }
  void form(const ac::Scan& s, bool) {
    lambda(s.f);
    if (s.seed) exp(*s.seed);
    acc(*s.a);
  }
  void form(const ac::Permute& p, bool) {
    lambda(p.combine);
    lambda(p.target);
    acc(*p.defaults);
    acc(*p.source);
  }
  void form(const ac::Backpermute& b, bool) {
    exp(*b.shape);
    lambda(b.source_index);
    acc(*b.a);
  }
  void form(const ac::Reshape& r, bool) {
    exp(*r.shape);
    acc(*r.a);
  }
  void spec(const std::vector<ac::SpecItem>& s) {
    for (const auto& i : s)
      if (!i.is_all()) exp(*i.extent);
  }
  void form(const ac::Replicate& r, bool) {
    spec(r.spec);
    acc(*r.a);
  }
  void form(const ac::Slice& s, bool) {
    spec(s.spec);
    acc(*s.a);
  }
  void form(const ac::Stencil& s, bool) {
    if (s.boundary.constant) exp(*s.boundary.constant);
    lambda(s.f);
    acc(*s.a, true);
  }
  void form(const ac::Awhile& w, bool) {
    acc(*w.init);
    bool saved = in_loop_;
    in_loop_ = true;
    if (w.cond.params[0].name != name_) acc(*w.cond.body);
    if (w.body.params[0].name != name_) acc(*w.body.body);
    in_loop_ = saved;
  }
  void form(const ac::ATrace& t, bool) { acc(*t.a); }
  void form(const ac::Call&, bool) { unexpanded_call({}); }

  void form(const ac::ACond& c, bool) {
    exp(*c.cond);
    acc(*c.then_branch);
    acc(*c.else_branch);
  }
};

} // namespace

Uses uses_after(const ac::Alet& l, size_t k) {
  UseCounter c(l.bindings[k].name);
  for (size_t j = k + 1; j < l.bindings.size(); ++j) {
    c.acc(*l.bindings[j].value);
    if (l.bindings[j].name == l.bindings[k].name) return c.uses;
  }
  c.acc(*l.body);
  return c.uses;
}

} // namespace strata::fusion
