#include "fusion/kernel_graph.h"

#include "core/ir_walk.h"
#include "core/overload.h"
#include "fusion/graph_run.h"

namespace strata {

ArrayId KernelGraph::id_of(const std::string& name) const {
  if (name.size() < 2 || name[0] != 'a') return -1;
  ArrayId id = 0;
  for (size_t i = 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9' || id > 1'000'000'000 / 10) return -1;
    id = id * 10 + (name[i] - '0');
  }
  return size_t(id) < arrays.size() && arrays[size_t(id)].name == name ? id : -1;
}

std::string_view kernel_kind_name(const Kernel& k) {
  return std::visit(
      Overload{[](const kn::Generate&) { return std::string_view("generate"); },
               [](const kn::Fold& f) { return std::string_view(f.seed ? "fold" : "fold1"); },
               [](const kn::FoldSeg&) { return std::string_view("foldseg"); },
               [](const kn::Scan& s) { return scan_name(s.kind); },
               [](const kn::Permute&) { return std::string_view("permute"); },
               [](const kn::Stencil&) { return std::string_view("stencil"); },
               [](const kn::Loop&) { return std::string_view("awhile"); },
               [](const kn::Branch&) { return std::string_view("acond"); }},
      k.body);
}

namespace {
struct Reads {
  const KernelGraph& g;
  std::vector<ArrayId> ids;

  void add(ArrayId id) {
    for (ArrayId x : ids)
      if (x == id) return;
    ids.push_back(id);
  }
  void acc(const AccPtr& a) {
    if (const auto* v = a ? std::get_if<ac::Var>(&a->node) : nullptr) add(g.id_of(v->name));
  }
  void lambda(const Lambda& f) { exp(f.body); }
  void delayed(const Delayed& d) {
    for (const Check& c : d.checks) {
      exp(c.a);
      exp(c.b);
    }
    exp(d.shape);
    lambda(d.elem);
  }
  void exp(const ExpPtr& e) {
    if (!e) return;
    // A while's start value first, then its functions (the order of `ids`).
    if (const auto* w = std::get_if<ex::While>(&e->node)) {
      exp(w->init);
      lambda(w->cond);
      lambda(w->step);
      return;
    }
    for_each_child_slot(
        *e, [&](const ExpPtr& x) { exp(x); }, [&](const AccPtr& a) { acc(a); });
  }
  void kernel(const Kernel& k) {
    std::visit(Overload{[&](const kn::Generate& x) { delayed(x.body); },
                        [&](const kn::Fold& x) {
                          exp(x.seed);
                          delayed(x.input);
                          lambda(x.f);
                        },
                        [&](const kn::FoldSeg& x) {
                          exp(x.seed);
                          delayed(x.input);
                          add(x.segs);
                          lambda(x.f);
                        },
                        [&](const kn::Scan& x) {
                          exp(x.seed);
                          delayed(x.input);
                          lambda(x.f);
                        },
                        [&](const kn::Permute& x) {
                          delayed(x.defaults);
                          delayed(x.source);
                          lambda(x.target);
                          lambda(x.combine);
                        },
                        [&](const kn::Stencil& x) {
                          add(x.input);
                          exp(x.boundary.constant);
                          lambda(x.f);
                        },
                        [&](const kn::Loop& x) {
                          for (ArrayId id : x.init)
                            add(id);
                        },
                        [&](const kn::Branch& x) { exp(x.cond); }},
               k.body);
  }
};

} // namespace

std::vector<ArrayId> array_reads(const KernelGraph& g, const Kernel& k) {
  Reads r{g, {}};
  r.kernel(k);
  return r.ids;
}

std::vector<const Kernel*> compute_kernels(const KernelGraph& g) {
  std::vector<const Kernel*> out;
  for_each_kernel(g.body, [&](const Kernel& k) {
    if (!std::holds_alternative<kn::Loop>(k.body) && !std::holds_alternative<kn::Branch>(k.body))
      out.push_back(&k);
  });
  return out;
}

int count_kernels(const KernelGraph& g) {
  return int(compute_kernels(g).size());
}

} // namespace strata
