#include "oracle/gen/walk.h"

#include "core/overload.h"

namespace strata::gen {

void for_each_child(Exp& e, const ExpVisitor& fe, const AccVisitor& fa) {
  auto x = [&](const ExpPtr& p) {
    if (p) fe(*p);
  };
  auto a = [&](const AccPtr& p) {
    if (p) fa(*p);
  };
  std::visit(Overload{[](ex::Const&) {},
                      [](ex::Var&) {},
                      [](ex::Ignore&) {},
                      [](ex::At&) {},
                      [&](ex::Let& n) {
                        for (auto& b : n.bindings)
                          x(b.value);
                        x(n.body);
                      },
                      [&](ex::If& n) {
                        x(n.cond);
                        x(n.then_branch);
                        x(n.else_branch);
                      },
                      [&](ex::Tuple& n) {
                        for (auto& c : n.elems)
                          x(c);
                      },
                      [&](ex::Proj& n) { x(n.tuple); },
                      [&](ex::Index& n) {
                        for (auto& c : n.components)
                          x(c);
                      },
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
                      [&](ex::PrimApp& n) {
                        for (auto& c : n.args)
                          x(c);
                      }},
             e.node);
}

void for_each_child(Acc& node, const ExpVisitor& fe, const AccVisitor& fa) {
  auto x = [&](const ExpPtr& p) {
    if (p) fe(*p);
  };
  auto a = [&](const AccPtr& p) {
    if (p) fa(*p);
  };
  auto spec = [&](std::vector<ac::SpecItem>& s) {
    for (auto& i : s)
      x(i.extent);
  };
  std::visit(Overload{[](ac::Var&) {},
                      [](ac::Use&) {},
                      [&](ac::Alet& n) {
                        for (auto& b : n.bindings)
                          a(b.value);
                        a(n.body);
                      },
                      [&](ac::ATuple& n) {
                        for (auto& c : n.elems)
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
                      }},
             node.node);
}

void walk(Acc& root, const ExpVisitor& on_exp, const AccVisitor& on_acc) {
  ExpVisitor fe;
  AccVisitor fa;
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

} // namespace strata::gen
