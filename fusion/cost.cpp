#include "fusion/cost.h"

#include "core/overload.h"

namespace strata::fusion {

void cost(const Lambda& f, Cost& c) {
  cost(*f.body, c);
}
void cost(const Exp& e, Cost& c) {
  ++c.nodes;
  std::visit(Overload{[&](const ex::Let& l) {
                        for (const auto& b : l.bindings)
                          cost(*b.value, c);
                        cost(*l.body, c);
                      },
                      [&](const ex::If& i) {
                        cost(*i.cond, c);
                        cost(*i.then_branch, c);
                        cost(*i.else_branch, c);
                      },
                      [&](const ex::Tuple& t) {
                        for (const auto& x : t.elems)
                          cost(*x, c);
                      },
                      [&](const ex::Proj& p) { cost(*p.tuple, c); },
                      [&](const ex::Index& i) {
                        for (const auto& x : i.components)
                          cost(*x, c);
                      },
                      [&](const ex::Cast& k) { cost(*k.arg, c); },
                      [&](const ex::While&) { c.loops = true; },
                      [&](const ex::Read& r) { cost(*r.index, c); },
                      [&](const ex::LinearRead& r) { cost(*r.index, c); },
                      [&](const ex::ToIndex& t) {
                        cost(*t.shape, c);
                        cost(*t.index, c);
                      },
                      [&](const ex::FromIndex& t) {
                        cost(*t.shape, c);
                        cost(*t.index, c);
                      },
                      [&](const ex::Trace& t) { cost(*t.arg, c); },
                      [&](const ex::PrimApp& p) {
                        for (const auto& x : p.args)
                          cost(*x, c);
                      },
                      [](const auto&) {}},
             e.node);
}
} // namespace strata::fusion
