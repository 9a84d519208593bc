// The one traversal of the IR's children (docs/architecture.md). Every form
// of core/ir.h is listed here once, with no default case: a form added to
// the IR fails to compile here until its children are listed, and every pass
// built on this header then reaches them.
//
//   for_each_child_slot(e, on_exp, on_acc)  the child pointers of `e` (ExpPtr&,
//                                           AccPtr&), null ones skipped: for
//                                           rewriters that replace children
//   for_each_child(e, on_exp, on_acc)       the child nodes (Exp&/Acc&, or
//                                           const Exp&/const Acc& for a const e)
//   walk_nodes(a, on_exp, on_acc)           every node below `a`, parents first
//
// Children come in source order (the order the printer writes them); a
// lambda's body, a fold's seed, a spec's extents and a stencil's boundary
// constant are children. A pass lists only the forms it treats specially
// and hands the rest to for_each_child.
#pragma once

#include <functional>
#include <utility>
#include <variant>

#include "core/ir.h"
#include "core/overload.h"

namespace strata {

// The operands of a call (a function's body counts as a child).
template <class X, class A> void operands(std::vector<Operand>& ops, X& x, A& a) {
  for (Operand& o : ops) {
    a(o.array);
    x(o.scalar);
    if (o.fn) x(o.fn->body);
  }
}

template <class OnExp, class OnAcc>
void for_each_child_slot(Exp& e, OnExp&& on_exp, OnAcc&& on_acc) {
  auto x = [&](ExpPtr& p) {
    if (p) on_exp(p);
  };
  auto a = [&](AccPtr& p) {
    if (p) on_acc(p);
  };
  auto xs = [&](std::vector<ExpPtr>& ps) {
    for (ExpPtr& p : ps)
      x(p);
  };
  std::visit(Overload{[](ex::Const&) {},
                      [](ex::Var&) {},
                      [](ex::Ignore&) {},
                      [](ex::At&) {},
                      [&](ex::Let& n) {
                        for (ex::Binding& b : n.bindings) {
                          x(b.value);
                          if (b.fn) x(b.fn->body);
                        }
                        x(n.body);
                      },
                      [&](ex::If& n) {
                        x(n.cond);
                        x(n.then_branch);
                        x(n.else_branch);
                      },
                      [&](ex::Tuple& n) { xs(n.elems); },
                      [&](ex::Proj& n) { x(n.tuple); },
                      [&](ex::Index& n) { xs(n.components); },
                      [&](ex::Cast& n) { x(n.arg); },
                      [&](ex::While& n) {
                        x(n.cond.body);
                        x(n.step.body);
                        x(n.init);
                      },
                      [&](ex::ShapeOf& n) { a(n.array); },
                      [&](ex::SizeOf& n) { a(n.array); },
                      [&](ex::Read& n) {
                        a(n.array);
                        x(n.index);
                      },
                      [&](ex::LinearRead& n) {
                        a(n.array);
                        x(n.index);
                      },
                      [&](ex::The& n) { a(n.array); },
                      [&](ex::ToIndex& n) {
                        x(n.shape);
                        x(n.index);
                      },
                      [&](ex::FromIndex& n) {
                        x(n.shape);
                        x(n.index);
                      },
                      [&](ex::Trace& n) { x(n.arg); },
                      [&](ex::PrimApp& n) { xs(n.args); },
                      [&](ex::Call& n) { operands(n.args, x, a); }},
             e.node);
}

template <class OnExp, class OnAcc>
void for_each_child_slot(Acc& node, OnExp&& on_exp, OnAcc&& on_acc) {
  auto x = [&](ExpPtr& p) {
    if (p) on_exp(p);
  };
  auto a = [&](AccPtr& p) {
    if (p) on_acc(p);
  };
  auto spec = [&](std::vector<ac::SpecItem>& s) {
    for (ac::SpecItem& i : s)
      x(i.extent);
  };
  std::visit(Overload{[](ac::Var&) {},
                      [](ac::Use&) {},
                      [&](ac::Alet& n) {
                        for (ac::Binding& b : n.bindings)
                          a(b.value);
                        a(n.body);
                      },
                      [&](ac::ATuple& n) {
                        for (AccPtr& c : n.elems)
                          a(c);
                      },
                      [&](ac::AProj& n) { a(n.tuple); },
                      [&](ac::Unit& n) { x(n.value); },
                      [&](ac::Generate& n) {
                        x(n.shape);
                        x(n.f.body);
                      },
                      [&](ac::Fill& n) {
                        x(n.shape);
                        x(n.value);
                      },
                      [&](ac::Map& n) {
                        x(n.f.body);
                        a(n.a);
                      },
                      [&](ac::ZipWith& n) {
                        x(n.f.body);
                        a(n.a);
                        a(n.b);
                      },
                      [&](ac::Fold& n) {
                        x(n.f.body);
                        x(n.seed);
                        a(n.a);
                      },
                      [&](ac::FoldSeg& n) {
                        x(n.f.body);
                        x(n.seed);
                        a(n.a);
                        a(n.segs);
                      },
                      [&](ac::Scan& n) {
                        x(n.f.body);
                        x(n.seed);
                        a(n.a);
                      },
                      [&](ac::Permute& n) {
                        x(n.combine.body);
                        a(n.defaults);
                        x(n.target.body);
                        a(n.source);
                      },
                      [&](ac::Backpermute& n) {
                        x(n.shape);
                        x(n.source_index.body);
                        a(n.a);
                      },
                      [&](ac::Reshape& n) {
                        x(n.shape);
                        a(n.a);
                      },
                      [&](ac::Replicate& n) {
                        spec(n.spec);
                        a(n.a);
                      },
                      [&](ac::Slice& n) {
                        a(n.a);
                        spec(n.spec);
                      },
                      [&](ac::Stencil& n) {
                        x(n.boundary.constant);
                        x(n.f.body);
                        a(n.a);
                      },
                      [&](ac::Awhile& n) {
                        a(n.cond.body);
                        a(n.body.body);
                        a(n.init);
                      },
                      [&](ac::ATrace& n) { a(n.a); },
                      [&](ac::ACond& n) {
                        x(n.cond);
                        a(n.then_branch);
                        a(n.else_branch);
                      },
                      [&](ac::Call& n) { operands(n.args, x, a); }},
             node.node);
}

template <class OnExp, class OnAcc> void for_each_child(Exp& e, OnExp&& on_exp, OnAcc&& on_acc) {
  for_each_child_slot(
      e, [&](ExpPtr& p) { on_exp(*p); }, [&](AccPtr& p) { on_acc(*p); });
}
template <class OnExp, class OnAcc> void for_each_child(Acc& a, OnExp&& on_exp, OnAcc&& on_acc) {
  for_each_child_slot(
      a, [&](ExpPtr& p) { on_exp(*p); }, [&](AccPtr& p) { on_acc(*p); });
}

// The const forms share the list above: the node is only read (the cast
// gives the slot walk its non-const signature; no slot is written).
template <class OnExp, class OnAcc>
void for_each_child(const Exp& e, OnExp&& on_exp, OnAcc&& on_acc) {
  for_each_child_slot(
      const_cast<Exp&>(e), [&](ExpPtr& p) { on_exp(std::as_const(*p)); },
      [&](AccPtr& p) { on_acc(std::as_const(*p)); });
}
template <class OnExp, class OnAcc>
void for_each_child(const Acc& a, OnExp&& on_exp, OnAcc&& on_acc) {
  for_each_child_slot(
      const_cast<Acc&>(a), [&](ExpPtr& p) { on_exp(std::as_const(*p)); },
      [&](AccPtr& p) { on_acc(std::as_const(*p)); });
}

// Every node at and below `root`, parents first (mutable nodes).
inline void walk_nodes(Acc& root, const std::function<void(Exp&)>& on_exp,
                       const std::function<void(Acc&)>& on_acc) {
  std::function<void(Exp&)> fe;
  std::function<void(Acc&)> fa;
  fe = [&](Exp& e) {
    on_exp(e);
    for_each_child(e, fe, fa);
  };
  fa = [&](Acc& a) {
    on_acc(a);
    for_each_child(a, fe, fa);
  };
  fa(root);
}

} // namespace strata
