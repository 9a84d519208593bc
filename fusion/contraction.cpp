// The recogniser of fusion/contraction.h: the element function is evaluated
// abstractly (fusion/element_abstraction.h), each value standing for a loop
// variable, an index of loop variables, or a read of a manifest array at
// such an index.
#include "fusion/contraction.h"

#include "fusion/element_abstraction.h"

namespace strata {
namespace {

using namespace abstract;

// `e` is (op p0 p1) of the lambda's parameters named `first` and `second`, in that order.
bool is_binary_of(const Exp& e, Prim op, const std::string& first, const std::string& second) {
  auto* app = std::get_if<ex::PrimApp>(&e.node);
  if (!app || app->op != op || app->args.size() != 2) return false;
  auto* a = std::get_if<ex::Var>(&app->args[0]->node);
  auto* b = std::get_if<ex::Var>(&app->args[1]->node);
  return a && b && a->name == first && b->name == second;
}

} // namespace

std::optional<Contraction> find_contraction(const KernelGraph& g, const kn::Fold& fold) {
  const Type& elem = fold.input.type.elem();
  int rank = fold.input.type.rank();
  if (!elem.is_scalar() || rank < 2) return std::nullopt;
  ScalarKind kind = elem.scalar_kind();
  bool integer = kind == ScalarKind::I32 || kind == ScalarKind::I64;
  if (kind != ScalarKind::F32 && kind != ScalarKind::F64 && !integer) return std::nullopt;
  const Lambda& f = fold.f;
  if (f.params.size() != 2) return std::nullopt;
  const std::string &acc = f.params[0].name, &e = f.params[1].name;
  // Wrapping integer + gives the same bits in either operand order.
  if (!is_binary_of(*f.body, Prim::Add, acc, e) &&
      !(integer && is_binary_of(*f.body, Prim::Add, e, acc)))
    return std::nullopt;
  const Lambda& element = fold.input.elem;
  if (element.params.size() != 1) return std::nullopt;
  // The element: (* X Y), possibly under lets binding X and Y.
  ElementAbstraction abstract(g, element.params[0].name, rank);
  const Exp* body = element.body.get();
  while (auto* let = std::get_if<ex::Let>(&body->node)) {
    for (const ex::Binding& b : let->bindings) {
      if (b.fn) return std::nullopt;
      abstract.bind(b.name, abstract.eval(*b.value));
    }
    body = let->body.get();
  }
  auto* mul = std::get_if<ex::PrimApp>(&body->node);
  if (!mul || mul->op != Prim::Mul || mul->args.size() != 2) return std::nullopt;
  auto operand = [&](const Exp& a) -> std::optional<ArrayRead> {
    Value v = abstract.eval(a);
    auto* read = std::get_if<ArrayRead>(&v);
    if (!read || !read->whole(g) || read->type != elem) return std::nullopt;
    return *read;
  };
  auto x = operand(*mul->args[0]);
  auto y = operand(*mul->args[1]);
  // The tiles compute X * Y alone: a binding besides them that could fail
  // would be skipped.
  if (!x || !y || !abstract.bindings_within({&*x, &*y})) return std::nullopt;
  return Contraction{kind, ContractionOperand{x->array, x->vars},
                     ContractionOperand{y->array, y->vars}};
}

} // namespace strata
